/* Protocol framing: SYNC LEN SEQ TYPE PAYLOAD.. CRC_HI CRC_LO SYNC (docs/firmware/PROTOCOL.md).
 * Same rules as firmware_bridge/framing.py on the host. */
#ifndef AZUL_FRAME_H
#define AZUL_FRAME_H
#include <stdint.h>

#define FRAME_SYNC 0x7E
#define FRAME_MIN 6
#define FRAME_MAX 48
#define FRAME_GAP_MS 50 /* a pause this long on the line ends any half-received frame */

typedef struct {
    uint8_t buf[FRAME_MAX];
    uint8_t len;
    uint8_t hunting; /* after an error: skip bytes until the next SYNC */
    uint32_t last_ms;
    uint16_t errors;
} frame_rx_t;

/* Feed one received byte; returns the frame's length when buf holds a complete, valid frame, else 0.
 * In a valid frame: buf[1] = seq, buf[2] = type, payload = buf + 3, payload length = len - FRAME_MIN. */
uint8_t frame_rx_byte(frame_rx_t *rx, uint8_t byte, uint32_t now_ms);

void frame_send(uint8_t seq, uint8_t type, const uint8_t *payload, uint8_t n);

#endif
