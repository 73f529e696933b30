#include "frame.h"

#include <util/crc16.h>

#include "uart.h"

static uint16_t crc_of(const uint8_t *p, uint8_t n) {
    uint16_t crc = 0xFFFF; /* CRC-16/CCITT-FALSE, as crc16_ccitt() on the host */
    while (n--) crc = _crc_xmodem_update(crc, *p++);
    return crc;
}

static uint8_t fail(frame_rx_t *rx, uint8_t byte) {
    rx->errors++;
    rx->len = 0;
    /* If this byte was itself a SYNC, the next byte may start a frame; otherwise hunt for one. */
    rx->hunting = byte != FRAME_SYNC;
    return 0;
}

uint8_t frame_rx_byte(frame_rx_t *rx, uint8_t byte, uint32_t now_ms) {
    if (now_ms - rx->last_ms > FRAME_GAP_MS) {
        /* Senders write a frame back to back: after a pause, whatever was half-received was a glitch. */
        rx->len = 0;
        rx->hunting = 0;
    }
    rx->last_ms = now_ms;
    if (rx->hunting) {
        if (byte == FRAME_SYNC) rx->hunting = 0;
        return 0;
    }
    if (rx->len == 0 && byte == FRAME_SYNC) return 0; /* filler before a frame */
    rx->buf[rx->len++] = byte;
    uint8_t flen = rx->buf[0];
    if (flen < FRAME_MIN || flen > FRAME_MAX) return fail(rx, byte);
    if (rx->len < flen) return 0;
    rx->len = 0;
    if (byte != FRAME_SYNC) return fail(rx, byte);
    uint16_t crc = crc_of(rx->buf, flen - 3);
    if (rx->buf[flen - 3] != (crc >> 8) || rx->buf[flen - 2] != (crc & 0xFF)) return fail(rx, byte);
    return flen;
}

void frame_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t n) {
    uint8_t head[3] = {(uint8_t)(n + FRAME_MIN), seq, type};
    uint16_t crc = 0xFFFF;
    uart_putc(FRAME_SYNC);
    for (uint8_t i = 0; i < 3; i++) {
        uart_putc(head[i]);
        crc = _crc_xmodem_update(crc, head[i]);
    }
    for (uint8_t i = 0; i < n; i++) {
        uart_putc(payload[i]);
        crc = _crc_xmodem_update(crc, payload[i]);
    }
    uart_putc(crc >> 8);
    uart_putc(crc & 0xFF);
    uart_putc(FRAME_SYNC);
}
