/* Board, pins and protocol constants of the Azul score display (ATmega328P: Arduino Uno / Nano). */
#ifndef AZUL_CONFIG_H
#define AZUL_CONFIG_H

#ifndef F_CPU
#define F_CPU 16000000UL
#endif

/* 57600 Bd rather than 115200: the WS2812 write keeps interrupts off for ~160 us, and at 57600 Bd a byte
 * takes 174 us, so the USART's receive buffer can never overflow while the LEDs are written. */
#define BAUD 57600

#define PROTO_MAJOR 1
#define PROTO_MINOR 0
#define FW_MAJOR 1
#define FW_MINOR 0

#define MAX_PLAYERS 4
#define DIGITS_PER_PLAYER 4
#define MAX_SCORE 9999
#define NO_PLAYER 0xFF
#define BUTTON_COUNT 2

/* MAX7219: two daisy-chained 8-digit modules on hardware SPI. DIN = MOSI (PB3, D11), CLK = SCK (PB5, D13). */
#define MAX_CS_DDR DDRB
#define MAX_CS_PORT PORTB
#define MAX_CS_BIT PB2 /* LOAD/CS on D10 (it is also SS, which must be an output in SPI master mode) */
#define MAX_CHIPS 2

/* WS2812 data on PD6 (D6): LEDs 0..3 = players 1..4, LED 4 = status / alert. */
#define WS_DDR DDRD
#define WS_PORT PORTD
#define WS_BIT PD6
#define LED_COUNT 5
#define STATUS_LED 4

/* Buttons to GND with the internal pull-ups: confirm on PD2 (D2), undo on PD3 (D3). */
#define BTN_DDR DDRD
#define BTN_PORT PORTD
#define BTN_PIN PIND
#define BTN_CONFIRM_BIT PD2
#define BTN_UNDO_BIT PD3
#define DEBOUNCE_MS 20

#define LINK_LOST_MS 3000UL     /* no valid frame from the host for this long: show "link lost" */
#define EVENT_RETRY_MS 100      /* first resend of an unacknowledged button event, doubling ... */
#define EVENT_RETRY_CAP_MS 400  /* ... up to this */
#define ERROR_REPORT_MS 200     /* at most one ERROR report per this interval: garbage must not flood */
#define HW_REFRESH_MS 1000UL    /* rewrite MAX7219 config and LEDs: heals glitches picked up by the wires */

/* Watchdog (1 s): a firmware hung by an electrical glitch restarts by itself and the host restores the state.
 * Build with AZUL_WATCHDOG=0 (make WATCHDOG=0) for Nanos with the old bootloader, which loops forever
 * after a watchdog reset (Optiboot on the Uno and new Nanos is fine). */
#ifndef AZUL_WATCHDOG
#define AZUL_WATCHDOG 1
#endif

#endif
