/* Turns the score state into MAX7219 segment patterns and WS2812 colours. Pure computation, no I/O. */
#ifndef AZUL_DISPLAY_H
#define AZUL_DISPLAY_H
#include <stdint.h>

#include "config.h"

typedef struct {
    uint8_t have_state; /* 0 until the host sent one: show dashes */
    uint8_t alert;
    uint8_t players;    /* 0..MAX_PLAYERS */
    uint8_t current;    /* 0..players-1, or NO_PLAYER */
    uint8_t brightness; /* 0..15 */
    uint16_t scores[MAX_PLAYERS];
} score_state_t;

typedef struct {
    uint8_t digits[MAX_CHIPS][8];
    uint8_t grb[LED_COUNT * 3];
} frame_image_t;

/* link_lost: no host for a while; now_ms drives the blinking. */
void display_render(const score_state_t *s, uint8_t link_lost, uint32_t now_ms, frame_image_t *out);

#endif
