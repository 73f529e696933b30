#include "app.h"

#include <avr/interrupt.h>
#include <avr/sleep.h>
#include <avr/wdt.h>
#include <string.h>

#include "buttons.h"
#include "clock.h"
#include "config.h"
#include "display.h"
#include "frame.h"
#include "max7219.h"
#include "uart.h"
#include "ws2812.h"

/* Message types and codes: keep in step with firmware_bridge/messages.py. */
enum { H_HELLO = 0x01, H_STATE = 0x02, H_PING = 0x03, H_READ_STATE = 0x04, H_EVENT_ACK = 0x05 };
enum { D_ACK = 0x81, D_HELLO_REPLY = 0x82, D_STATE_REPORT = 0x83, D_EVENT = 0x84, D_ERROR = 0x85, D_BOOT = 0x86 };
enum { E_BAD_FRAME = 1, E_UNKNOWN_TYPE = 2, E_BAD_LENGTH = 3, E_VERSION = 4, E_RX_OVERFLOW = 5 };
enum { F_HAVE_STATE = 0x01, F_LINK_LOST = 0x02, F_EVENTS_PENDING = 0x04 };
#define STATE_LEN 12
#define EVENT_QUEUE 8 /* power of two */

typedef struct {
    uint8_t seq, button;
} event_t;

static score_state_t state;
static frame_rx_t rx;
static frame_image_t shown;   /* what was last written to the hardware */
static uint8_t tx_seq;
static uint8_t ever_heard;
static uint32_t last_heard_ms;
static uint16_t rx_frames;
static uint16_t errors_reported;
static uint32_t last_error_tx_ms;
static uint32_t last_hw_refresh_ms;
static uint8_t shown_brightness = 0xFF;

static event_t events[EVENT_QUEUE];
static uint8_t ev_head, ev_count, ev_seq, ev_tries;
static uint32_t ev_next_tx_ms;

static void send(uint8_t type, const uint8_t *payload, uint8_t n) { frame_send(++tx_seq, type, payload, n); }

static void put32(uint8_t *p, uint32_t v) {
    p[0] = v >> 24;
    p[1] = v >> 16;
    p[2] = v >> 8;
    p[3] = v;
}

static uint8_t link_lost(uint32_t now) { return !ever_heard || now - last_heard_ms > LINK_LOST_MS; }

static uint8_t dev_flags(uint32_t now) {
    uint8_t f = 0;
    if (state.have_state) f |= F_HAVE_STATE;
    if (link_lost(now)) f |= F_LINK_LOST;
    if (ev_count) f |= F_EVENTS_PENDING;
    return f;
}

static void send_error(uint8_t ack, uint8_t code, uint8_t count) {
    uint8_t p[3] = {ack, code, count};
    send(D_ERROR, p, 3);
}

static void send_ack(uint8_t ack, uint32_t now) {
    uint8_t p[2] = {ack, dev_flags(now)};
    send(D_ACK, p, 2);
}

static void encode_state(uint8_t *p) {
    p[0] = state.alert ? 1 : 0;
    p[1] = state.players;
    p[2] = state.current;
    for (uint8_t i = 0; i < MAX_PLAYERS; i++) {
        p[3 + 2 * i] = state.scores[i] >> 8;
        p[4 + 2 * i] = state.scores[i] & 0xFF;
    }
    p[11] = state.brightness;
}

static void apply_state(const uint8_t *p) {
    state.alert = p[0] & 1;
    state.players = p[1] > MAX_PLAYERS ? MAX_PLAYERS : p[1];
    state.current = p[2] < state.players ? p[2] : NO_PLAYER;
    for (uint8_t i = 0; i < MAX_PLAYERS; i++) {
        uint16_t v = ((uint16_t)p[3 + 2 * i] << 8) | p[4 + 2 * i];
        state.scores[i] = v > MAX_SCORE ? MAX_SCORE : v;
    }
    state.brightness = p[11] & 0x0F;
    state.have_state = 1;
}

static void handle_frame(uint8_t seq, uint8_t type, const uint8_t *p, uint8_t n, uint32_t now) {
    rx_frames++;
    ever_heard = 1;
    last_heard_ms = now;
    switch (type) {
    case H_HELLO: {
        if (n != 2) break;
        uint8_t r[11] = {seq, PROTO_MAJOR, PROTO_MINOR, FW_MAJOR, FW_MINOR, MAX_PLAYERS, BUTTON_COUNT};
        put32(r + 7, now);
        send(D_HELLO_REPLY, r, sizeof r);
        if (p[0] != PROTO_MAJOR) send_error(seq, E_VERSION, 1);
        return;
    }
    case H_STATE:
        if (n != STATE_LEN) break;
        apply_state(p); /* idempotent: a retransmitted copy changes nothing */
        send_ack(seq, now);
        return;
    case H_PING:
        if (n != 0) break;
        send_ack(seq, now);
        return;
    case H_READ_STATE: {
        if (n != 0) break;
        uint8_t r[1 + STATE_LEN + 9];
        r[0] = seq;
        encode_state(r + 1);
        r[13] = dev_flags(now);
        r[14] = rx_frames >> 8;
        r[15] = rx_frames & 0xFF;
        r[16] = rx.errors >> 8;
        r[17] = rx.errors & 0xFF;
        put32(r + 18, now);
        send(D_STATE_REPORT, r, sizeof r);
        return;
    }
    case H_EVENT_ACK:
        if (n != 1) break;
        if (ev_count && events[ev_head].seq == p[0]) {
            ev_head = (ev_head + 1) & (EVENT_QUEUE - 1);
            ev_count--;
            ev_tries = 0;
            ev_next_tx_ms = now; /* the next queued press goes out at once */
        }
        return; /* not acknowledged: a lost EVENT_ACK only makes us resend the event */
    default:
        send_error(seq, E_UNKNOWN_TYPE, 1);
        return;
    }
    send_error(seq, E_BAD_LENGTH, 1);
}

static void queue_press(uint8_t button, uint32_t now) {
    if (ev_count == EVENT_QUEUE) return; /* eight unacknowledged presses: the host is gone, drop more */
    ev_seq = ev_seq == 255 ? 1 : ev_seq + 1; /* 1..255, restarting at 1 after a reset */
    events[(ev_head + ev_count) & (EVENT_QUEUE - 1)] = (event_t){ev_seq, button};
    if (ev_count++ == 0) {
        ev_tries = 0;
        ev_next_tx_ms = now;
    }
}

static void send_pending_event(uint32_t now) {
    if (!ev_count || (int32_t)(now - ev_next_tx_ms) < 0) return;
    uint8_t p[4] = {0, events[ev_head].seq, events[ev_head].button, 1};
    send(D_EVENT, p, 4);
    uint16_t wait = EVENT_RETRY_MS << (ev_tries < 3 ? ev_tries : 3);
    if (wait > EVENT_RETRY_CAP_MS) wait = EVENT_RETRY_CAP_MS;
    ev_tries++;
    ev_next_tx_ms = now + wait;
}

static void report_errors(uint32_t now) {
    if (uart_take_overflow()) rx.errors++;
    if (rx.errors == errors_reported || now - last_error_tx_ms < ERROR_REPORT_MS) return;
    uint16_t fresh = rx.errors - errors_reported;
    errors_reported = rx.errors;
    last_error_tx_ms = now;
    send_error(0, E_BAD_FRAME, fresh > 255 ? 255 : (uint8_t)fresh);
}

static void refresh_outputs(uint32_t now) {
    frame_image_t next;
    display_render(&state, link_lost(now), now, &next);
    uint8_t periodic = now - last_hw_refresh_ms >= HW_REFRESH_MS;
    uint8_t brightness = state.have_state ? state.brightness : 8;
    if (periodic || brightness != shown_brightness) {
        /* Re-send the whole configuration now and then: a MAX7219 upset by a glitch on its wires
         * (blank, test mode, wrong scan limit) comes back by itself. */
        max7219_configure(brightness);
        shown_brightness = brightness;
    }
    if (periodic || memcmp(next.digits, shown.digits, sizeof next.digits)) max7219_show(next.digits);
    if (periodic || memcmp(next.grb, shown.grb, sizeof next.grb)) ws2812_send(next.grb, sizeof next.grb);
    if (periodic) last_hw_refresh_ms = now;
    shown = next;
}

#if AZUL_WATCHDOG
/* Runs before main(): after a watchdog reset the watchdog stays on with a 16 ms timeout, which would fire
 * again before app_init() sets it up. */
void wdt_off_at_boot(void) __attribute__((naked, used, section(".init3")));
void wdt_off_at_boot(void) {
    MCUSR = 0;
    wdt_disable();
}
#endif

void app_init(void) {
#if AZUL_WATCHDOG
    wdt_enable(WDTO_1S);
#endif
    clock_init();
    uart_init();
    buttons_init();
    max7219_init();
    ws2812_init();
    state.current = NO_PLAYER;
    sei();
    max7219_configure(8);
    uint8_t boot[5] = {0, PROTO_MAJOR, PROTO_MINOR, FW_MAJOR, FW_MINOR};
    send(D_BOOT, boot, sizeof boot); /* tells a connected host we lost the state */
    last_hw_refresh_ms = clock_ms() - HW_REFRESH_MS; /* first refresh writes everything */
}

void app_poll(void) {
#if AZUL_WATCHDOG
    wdt_reset(); /* the loop runs at least once per ms (timer tick); 1 s without it means a hang */
#endif
    uint32_t now = clock_ms();
    int16_t c;
    while ((c = uart_getc()) >= 0) {
        uint8_t len = frame_rx_byte(&rx, (uint8_t)c, now);
        if (len) handle_frame(rx.buf[1], rx.buf[2], rx.buf + 3, len - FRAME_MIN, now);
    }
    if (clock_tick()) {
        uint8_t pressed = buttons_sample();
        for (uint8_t b = 0; b < BUTTON_COUNT; b++)
            if (pressed & (1 << b)) queue_press(b, now);
        send_pending_event(now);
        report_errors(now);
        refresh_outputs(now);
    }
    /* Sleep until the next interrupt (1 ms tick or a received byte); checked with interrupts off so a
     * byte arriving between the check and the sleep cannot be slept through. */
    cli();
    if (!uart_rx_pending()) {
        set_sleep_mode(SLEEP_MODE_IDLE);
        sleep_enable();
        sei();
        sleep_cpu();
        sleep_disable();
    }
    sei();
}
