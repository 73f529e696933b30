/* Interrupt-driven USART0 with small ring buffers in both directions. */
#ifndef AZUL_UART_H
#define AZUL_UART_H
#include <stdint.h>

void uart_init(void);
/* -1 when nothing has arrived. */
int16_t uart_getc(void);
uint8_t uart_rx_pending(void);
/* Blocks only while the 64-byte transmit buffer is full (frames are at most 49 bytes). */
void uart_putc(uint8_t c);
/* 1 if received bytes were lost since the last call. */
uint8_t uart_take_overflow(void);

#endif
