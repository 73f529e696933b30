#include "clock.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/atomic.h>

#include "config.h"

static volatile uint32_t ms;
static volatile uint8_t ticked;

ISR(TIMER2_COMPA_vect) {
    ms++;
    ticked = 1;
}

void clock_init(void) {
    TCCR2A = _BV(WGM21);             /* CTC */
    TCCR2B = _BV(CS22);              /* clk/64: 250 kHz at 16 MHz */
    OCR2A = (F_CPU / 64 / 1000) - 1; /* 250 counts = 1 ms */
    TIMSK2 = _BV(OCIE2A);
}

uint32_t clock_ms(void) {
    uint32_t now;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) { now = ms; }
    return now;
}

uint8_t clock_tick(void) {
    uint8_t t;
    ATOMIC_BLOCK(ATOMIC_RESTORESTATE) {
        t = ticked;
        ticked = 0;
    }
    return t;
}
