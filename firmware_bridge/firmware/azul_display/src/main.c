/* Entry point for the avr-gcc build; in the Arduino IDE, azul_display.ino calls app_init/app_poll instead. */
#ifndef ARDUINO
#include "app.h"

int main(void) {
    app_init();
    for (;;) app_poll();
}
#endif
