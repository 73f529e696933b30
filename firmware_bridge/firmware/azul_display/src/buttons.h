/* Two push buttons to GND, debounced by requiring DEBOUNCE_MS identical samples taken once per ms. */
#ifndef AZUL_BUTTONS_H
#define AZUL_BUTTONS_H
#include <stdint.h>

void buttons_init(void);
/* Call once per millisecond; returns a bit mask of buttons newly pressed (bit 0 confirm, bit 1 undo). */
uint8_t buttons_sample(void);
/* Debounced state, bit set = held down. */
uint8_t buttons_held(void);

#endif
