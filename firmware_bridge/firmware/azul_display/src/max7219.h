/* Two daisy-chained MAX7219 drivers, 8 digits each, raw segment mode (no BCD decode, so we can draw '-'). */
#ifndef AZUL_MAX7219_H
#define AZUL_MAX7219_H
#include <stdint.h>

#include "config.h"

/* Segment bits in no-decode mode (datasheet table 6): DP A B C D E F G = bit 7..0. */
#define SEG_DP 0x80

void max7219_init(void);
/* Full configuration (scan limit, no decode, normal operation, no test) and the given intensity. */
void max7219_configure(uint8_t intensity);
/* digits[chip][d]: chip 0 is nearest the MCU, d = 0 is DIG0 (rightmost on common modules). */
void max7219_show(const uint8_t digits[MAX_CHIPS][8]);

#endif
