/* WS2812 / WS2812B ("NeoPixel") output, bit-banged with cycle-counted assembly for a 16 MHz clock. */
#ifndef AZUL_WS2812_H
#define AZUL_WS2812_H
#include <stdint.h>

void ws2812_init(void);
/* grb: 3 bytes per LED in the strip's wire order (green, red, blue). count: number of bytes (>= 1). */
void ws2812_send(const uint8_t *grb, uint8_t count);

#endif
