#include "buttons.h"

#include <avr/io.h>

#include "config.h"

static const uint8_t bit_of[BUTTON_COUNT] = {BTN_CONFIRM_BIT, BTN_UNDO_BIT};
static uint8_t stable;                /* debounced, bit set = pressed */
static uint8_t count[BUTTON_COUNT];   /* consecutive samples that disagree with `stable` */

void buttons_init(void) {
    BTN_DDR &= ~(_BV(BTN_CONFIRM_BIT) | _BV(BTN_UNDO_BIT));
    BTN_PORT |= _BV(BTN_CONFIRM_BIT) | _BV(BTN_UNDO_BIT); /* pull-ups: released reads 1 */
}

uint8_t buttons_sample(void) {
    uint8_t pins = BTN_PIN;
    uint8_t pressed_now = 0;
    for (uint8_t i = 0; i < BUTTON_COUNT; i++) {
        uint8_t raw = !(pins & _BV(bit_of[i]));
        uint8_t was = (stable >> i) & 1;
        if (raw == was) {
            count[i] = 0; /* a bounce back resets the count: contacts must settle for the whole window */
            continue;
        }
        if (++count[i] >= DEBOUNCE_MS) {
            count[i] = 0;
            stable ^= (uint8_t)(1 << i);
            if (raw) pressed_now |= (uint8_t)(1 << i);
        }
    }
    return pressed_now;
}

uint8_t buttons_held(void) { return stable; }
