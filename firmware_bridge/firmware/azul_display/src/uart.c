#include "uart.h"

#include <avr/interrupt.h>
#include <avr/io.h>

#include "config.h"
#include <util/setbaud.h>

#define RX_SIZE 64 /* powers of two: the index wrap is a mask */
#define TX_SIZE 64

static volatile uint8_t rx_buf[RX_SIZE];
static volatile uint8_t rx_head, rx_tail, rx_overflow;
static volatile uint8_t tx_buf[TX_SIZE];
static volatile uint8_t tx_head, tx_tail;

ISR(USART_RX_vect) {
    uint8_t c = UDR0;
    uint8_t next = (rx_head + 1) & (RX_SIZE - 1);
    if (next == rx_tail) {
        rx_overflow = 1; /* the frame this byte belonged to fails its CRC; the host retransmits */
        return;
    }
    rx_buf[rx_head] = c;
    rx_head = next;
}

ISR(USART_UDRE_vect) {
    if (tx_head == tx_tail) {
        UCSR0B &= ~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_buf[tx_tail];
    tx_tail = (tx_tail + 1) & (TX_SIZE - 1);
}

void uart_init(void) {
    UBRR0H = UBRRH_VALUE;
    UBRR0L = UBRRL_VALUE;
#if USE_2X
    UCSR0A = _BV(U2X0);
#else
    UCSR0A = 0;
#endif
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00); /* 8N1 */
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
}

int16_t uart_getc(void) {
    if (rx_head == rx_tail) return -1;
    uint8_t c = rx_buf[rx_tail];
    rx_tail = (rx_tail + 1) & (RX_SIZE - 1);
    return c;
}

uint8_t uart_rx_pending(void) { return rx_head != rx_tail; }

void uart_putc(uint8_t c) {
    uint8_t next = (tx_head + 1) & (TX_SIZE - 1);
    while (next == tx_tail) {
        /* buffer full: the UDRE interrupt drains it */
    }
    tx_buf[tx_head] = c;
    tx_head = next;
    UCSR0B |= _BV(UDRIE0);
}

uint8_t uart_take_overflow(void) {
    uint8_t o = rx_overflow;
    rx_overflow = 0;
    return o;
}
