#include "ws2812.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "config.h"

#if F_CPU != 16000000UL
#error "ws2812_send is cycle-counted for 16 MHz"
#endif

void ws2812_init(void) {
    WS_PORT &= ~_BV(WS_BIT);
    WS_DDR |= _BV(WS_BIT);
}

void ws2812_send(const uint8_t *grb, uint8_t count) {
    uint8_t byte, bits;
    uint8_t sreg = SREG;
    cli(); /* an interrupt inside a bit would stretch it into the wrong value */
    uint8_t hi = WS_PORT | _BV(WS_BIT);
    uint8_t lo = WS_PORT & ~_BV(WS_BIT);
    /* One bit = 20 cycles = 1.25 us. A 0 is high for 6 cycles (0.375 us), a 1 for 12 cycles (0.75 us),
     * inside the WS2812B's T0H 0.4 +/- 0.15 us and T1H 0.8 +/- 0.15 us. Cycle of each instruction in []. */
    __asm__ __volatile__(
        "1:  ld   %[byte], %a[ptr]+ \n\t"
        "    ldi  %[bits], 8        \n\t"
        "2:  out  %[port], %[hi]    \n\t" /* [0] rise */
        "    nop                    \n\t" /* [1] */
        "    nop                    \n\t" /* [2] */
        "    nop                    \n\t" /* [3] */
        "    nop                    \n\t" /* [4] */
        "    sbrs %[byte], 7        \n\t" /* [5] a 1 skips the next out (2 cycles) */
        "    out  %[port], %[lo]    \n\t" /* [6] fall for a 0 */
        "    nop                    \n\t" /* [7] */
        "    nop                    \n\t" /* [8] */
        "    nop                    \n\t" /* [9] */
        "    nop                    \n\t" /* [10] */
        "    nop                    \n\t" /* [11] */
        "    out  %[port], %[lo]    \n\t" /* [12] fall for a 1 */
        "    lsl  %[byte]           \n\t" /* [13] */
        "    nop                    \n\t" /* [14] */
        "    nop                    \n\t" /* [15] */
        "    nop                    \n\t" /* [16] */
        "    dec  %[bits]           \n\t" /* [17] */
        "    brne 2b                \n\t" /* [18,19] */
        "    dec  %[count]          \n\t"
        "    brne 1b                \n\t"
        : [byte] "=&d"(byte), [bits] "=&d"(bits), [count] "+r"(count), [ptr] "+e"(grb)
        : [port] "I"(_SFR_IO_ADDR(WS_PORT)), [hi] "r"(hi), [lo] "r"(lo));
    SREG = sreg;
}
