// Azul companion score display: Arduino IDE entry point.
// The firmware is plain C in src/ (built with the Makefile one folder up); the IDE compiles src/ too.
// Board: Arduino Uno or Nano (ATmega328P, 16 MHz). Wiring: docs/firmware/HARDWARE.md.
#include "src/app.h"

void setup() { app_init(); }

void loop() { app_poll(); }
