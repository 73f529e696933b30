/* A 1 ms tick from Timer2 (Timer0 is left to the Arduino core when built in the IDE). */
#ifndef AZUL_CLOCK_H
#define AZUL_CLOCK_H
#include <stdint.h>

void clock_init(void);
uint32_t clock_ms(void);
/* 1 once per elapsed millisecond since the last call (the main loop's scheduler). */
uint8_t clock_tick(void);

#endif
