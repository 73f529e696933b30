#include "display.h"

#include <avr/pgmspace.h>
#include <string.h>

#include "max7219.h"

/* 0-9 in no-decode segment bits (A = bit 6 ... G = bit 0). */
static const uint8_t font[10] PROGMEM = {0x7E, 0x30, 0x6D, 0x79, 0x33, 0x5B, 0x5F, 0x70, 0x7F, 0x7B};
#define SEG_MINUS 0x01

/* Player p owns 4 digits: players 1-2 on the chip nearest the MCU, 3-4 on the next; within a chip the
 * odd player is the left half (DIG7..DIG4) and the even one the right half (DIG3..DIG0). pos 0 = leftmost. */
static uint8_t *digit_at(frame_image_t *out, uint8_t player, uint8_t pos) {
    uint8_t base = (player & 1) ? 0 : 4;
    return &out->digits[player >> 1][base + (DIGITS_PER_PLAYER - 1 - pos)];
}

static void set_led(frame_image_t *out, uint8_t led, uint8_t r, uint8_t g, uint8_t b) {
    out->grb[led * 3] = g;
    out->grb[led * 3 + 1] = r;
    out->grb[led * 3 + 2] = b;
}

void display_render(const score_state_t *s, uint8_t link_lost, uint32_t now_ms, frame_image_t *out) {
    memset(out, 0, sizeof(*out));
    for (uint8_t p = 0; p < MAX_PLAYERS; p++) {
        if (!s->have_state) {
            for (uint8_t pos = 0; pos < DIGITS_PER_PLAYER; pos++) *digit_at(out, p, pos) = SEG_MINUS;
            continue;
        }
        if (p >= s->players) continue; /* fewer players: their digits stay dark */
        uint16_t v = s->scores[p];
        for (int8_t pos = DIGITS_PER_PLAYER - 1; pos >= 0; pos--) {
            *digit_at(out, p, pos) = pgm_read_byte(&font[v % 10]);
            v /= 10;
            if (v == 0) break; /* no leading zeros; a score of 0 still shows one "0" */
        }
        if (p == s->current) {
            *digit_at(out, p, DIGITS_PER_PLAYER - 1) |= SEG_DP;
            set_led(out, p, 0, 48, 0);
        }
    }
    uint8_t fast_blink = (now_ms / 125) & 1; /* 4 Hz: a broken rule should catch the eye */
    uint8_t slow_blink = (now_ms / 500) & 1;
    if (s->have_state && s->alert) {
        if (fast_blink) set_led(out, STATUS_LED, 64, 0, 0);
    } else if (link_lost || !s->have_state) {
        if (slow_blink) set_led(out, STATUS_LED, 24, 10, 0); /* amber: waiting for the companion */
    } else {
        set_led(out, STATUS_LED, 0, 0, 6); /* dim blue: linked */
    }
}
