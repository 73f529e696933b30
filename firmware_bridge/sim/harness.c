/*
 * Test harness: runs the display firmware in simavr (ATmega328P, 16 MHz, paced to real time) and
 *   - bridges USART0 to a pseudo-terminal, reachable through a symlink given on the command line, so the host
 *     bridge talks to it with pyserial exactly as to a USB-serial board;
 *   - watches the pins like the real parts would: SPI bytes latched into two daisy-chained MAX7219s by the
 *     rising LOAD (PB2) edge, and the WS2812 data line (PD6) decoded from the high-pulse widths in CPU cycles;
 *   - drives the two buttons (PD2, PD3), with contact bounce;
 *   - injects line faults between the pty and the UART: dropped/corrupted bytes, garbage, a mute device,
 *     a port that disappears and comes back, a device reset.
 *
 * Control: one command per line on stdin, one answer per line on stdout, answers start with '@':
 *   state                       -> @state {json}: digits as text, raw segments, MAX7219 config, LED colours
 *   press N [MS]                -> @ok: button N (0 confirm, 1 undo) held MS ms (default 80), with bounce
 *   fault DROP CORRUPT MUTE     -> @ok: probabilities per byte (both directions), MUTE 0/1
 *   garbage N [TO_HOST]         -> @ok: N random bytes into the UART receive line (TO_HOST=1: to the pty)
 *   unplug MS                   -> @ok: close the pty (host sees the port vanish), re-create it after MS ms
 *   reset                       -> @ok: reset the MCU (state lost, firmware restarts)
 *   jump ADDR                   -> @ok: set the program counter (byte address): simulates a hang
 *   quit
 * First line printed: "@pty <slave path>".
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pty.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <termios.h>
#include <time.h>
#include <unistd.h>

#include <avr_ioport.h>
#include <avr_spi.h>
#include <avr_uart.h>
#include <sim_avr.h>
#include <sim_elf.h>
#include <sim_irq.h>
#include <sim_time.h>

#define FREQ 16000000UL
#define CHIPS 2
#define LEDS 5
#define RX_FIFO 8192
#define WS_ONE_THRESHOLD 9 /* cycles: the firmware's 0 is 6 cycles high, a 1 is 12 */
#define WS_RESET_CYCLES 800 /* 50 us low = latch */

typedef struct {
    avr_t *avr;
    const char *link_path;
    int master, slave; /* -1 while "unplugged" */
    uint64_t replug_at_us;
    /* line between pty and UART */
    uint8_t rx_fifo[RX_FIFO];
    size_t rx_head, rx_len;
    int uart_xoff;
    avr_irq_t *uart_in;
    double drop, corrupt;
    int mute;
    uint64_t rng;
    /* MAX7219 model */
    uint8_t spi_bytes[16];
    int spi_count;
    int cs_low;
    uint8_t digit[CHIPS][8];
    uint8_t reg_decode[CHIPS], reg_intensity[CHIPS], reg_scan[CHIPS], reg_shutdown[CHIPS], reg_test[CHIPS];
    unsigned latches;
    /* WS2812 model */
    int ws_level;
    avr_cycle_count_t ws_rise, ws_fall;
    uint8_t ws_bits[LEDS * 3];
    int ws_bitcount;
    uint8_t led_grb[LEDS * 3];
    unsigned led_frames;
    /* buttons */
    avr_irq_t *button_irq[2];
    uint64_t bounce_until_us[2], release_at_us[2];
    int held[2];
    /* pacing */
    uint64_t wall_base_us;
    avr_cycle_count_t cycle_base;
} harness_t;

static uint64_t now_us(void) {
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (uint64_t)ts.tv_sec * 1000000ULL + (uint64_t)ts.tv_nsec / 1000ULL;
}

/* The device's own clock: a button is held for the device's milliseconds, whatever the host's load (a loaded
 * machine runs the simulation slower than the wall clock, and an 80 ms press held by the wall clock was too short
 * for the firmware's debounce). */
static uint64_t device_us(const harness_t *h) {
    return (uint64_t)((h->avr->cycle - h->cycle_base) / (FREQ / 1000000));
}

static double rnd(harness_t *h) { /* xorshift64*: reproducible faults for a given seed */
    h->rng ^= h->rng >> 12;
    h->rng ^= h->rng << 25;
    h->rng ^= h->rng >> 27;
    return (double)((h->rng * 2685821657736338717ULL) >> 11) / (double)(1ULL << 53);
}

static int line_fault(harness_t *h, uint8_t *byte) { /* returns 0 if the byte is lost */
    if (h->mute) return 0;
    if (h->drop > 0 && rnd(h) < h->drop) return 0;
    if (h->corrupt > 0 && rnd(h) < h->corrupt) *byte ^= (uint8_t)(1u << (int)(rnd(h) * 8));
    return 1;
}

/* ------------------------------------------------------------------------------------------- pty */
static void pty_open(harness_t *h) {
    char name[256];
    struct termios tio;
    if (openpty(&h->master, &h->slave, name, NULL, NULL) < 0) {
        perror("openpty");
        exit(1);
    }
    tcgetattr(h->slave, &tio);
    cfmakeraw(&tio);
    tcsetattr(h->slave, TCSANOW, &tio);
    fcntl(h->master, F_SETFL, fcntl(h->master, F_GETFL) | O_NONBLOCK);
    unlink(h->link_path);
    if (symlink(name, h->link_path) < 0) {
        perror("symlink");
        exit(1);
    }
    printf("@pty %s\n", name);
    fflush(stdout);
}

static void pty_close(harness_t *h) {
    unlink(h->link_path); /* the port disappears: re-opening fails until it is back */
    if (h->master >= 0) close(h->master);
    if (h->slave >= 0) close(h->slave);
    h->master = h->slave = -1;
}

/* ------------------------------------------------------------------------------------------ UART */
static void uart_out_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    harness_t *h = param;
    uint8_t byte = (uint8_t)value;
    if (h->master < 0 || !line_fault(h, &byte)) return;
    if (write(h->master, &byte, 1) < 0) {
        /* nobody reads the port (EAGAIN) or it is gone: the byte is lost, as on a real line */
    }
}

static void uart_xon_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    (void)value;
    ((harness_t *)param)->uart_xoff = 0;
}

static void uart_xoff_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    (void)value;
    ((harness_t *)param)->uart_xoff = 1;
}

static void rx_push(harness_t *h, uint8_t byte) {
    if (h->rx_len == RX_FIFO) return;
    h->rx_fifo[(h->rx_head + h->rx_len) % RX_FIFO] = byte;
    h->rx_len++;
}

static void uart_feed(harness_t *h) {
    while (h->rx_len && !h->uart_xoff) {
        uint8_t byte = h->rx_fifo[h->rx_head];
        h->rx_head = (h->rx_head + 1) % RX_FIFO;
        h->rx_len--;
        avr_raise_irq(h->uart_in, byte);
    }
}

/* --------------------------------------------------------------------------------------- MAX7219 */
static void max_latch(harness_t *h) {
    /* After n bytes, chip 0 (nearest) holds the last 16 bits, chip 1 the 16 before them. */
    for (int chip = 0; chip < CHIPS; chip++) {
        int at = h->spi_count - 2 * (chip + 1);
        if (at < 0) break;
        uint8_t reg = h->spi_bytes[at] & 0x0F, data = h->spi_bytes[at + 1];
        if (reg >= 1 && reg <= 8) h->digit[chip][reg - 1] = data;
        else if (reg == 0x09) h->reg_decode[chip] = data;
        else if (reg == 0x0A) h->reg_intensity[chip] = data & 0x0F;
        else if (reg == 0x0B) h->reg_scan[chip] = data & 0x07;
        else if (reg == 0x0C) h->reg_shutdown[chip] = data & 1;
        else if (reg == 0x0F) h->reg_test[chip] = data & 1;
    }
    h->latches++;
}

static void spi_out_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    harness_t *h = param;
    if (!h->cs_low) return;
    if (h->spi_count == (int)sizeof h->spi_bytes) {
        memmove(h->spi_bytes, h->spi_bytes + 1, sizeof h->spi_bytes - 1);
        h->spi_count--;
    }
    h->spi_bytes[h->spi_count++] = (uint8_t)value;
}

static void cs_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    harness_t *h = param;
    if (!value && !h->cs_low) {
        h->cs_low = 1;
        h->spi_count = 0;
    } else if (value && h->cs_low) {
        h->cs_low = 0;
        max_latch(h);
    }
}

/* ---------------------------------------------------------------------------------------- WS2812 */
static void ws_cb(struct avr_irq_t *irq, uint32_t value, void *param) {
    (void)irq;
    harness_t *h = param;
    int level = value & 1;
    if (level == h->ws_level) return;
    h->ws_level = level;
    avr_cycle_count_t now = h->avr->cycle;
    if (level) {
        if (now - h->ws_fall > WS_RESET_CYCLES) h->ws_bitcount = 0; /* a long low: a new frame starts */
        h->ws_rise = now;
        return;
    }
    h->ws_fall = now;
    int bit = (now - h->ws_rise) >= WS_ONE_THRESHOLD;
    if (h->ws_bitcount < LEDS * 24) {
        int i = h->ws_bitcount / 8;
        if (h->ws_bitcount % 8 == 0) h->ws_bits[i] = 0;
        h->ws_bits[i] = (uint8_t)((h->ws_bits[i] << 1) | bit);
        if (++h->ws_bitcount == LEDS * 24) { /* all LEDs got their 24 bits: they show it */
            memcpy(h->led_grb, h->ws_bits, sizeof h->led_grb);
            h->led_frames++;
        }
    }
}

/* ---------------------------------------------------------------------------------------- report */
static char seg_char(uint8_t seg) {
    static const struct {
        uint8_t seg;
        char c;
    } font[] = {{0x7E, '0'}, {0x30, '1'}, {0x6D, '2'}, {0x79, '3'}, {0x33, '4'}, {0x5B, '5'}, {0x5F, '6'},
                {0x70, '7'}, {0x7F, '8'}, {0x7B, '9'}, {0x01, '-'}, {0x00, ' '}};
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].seg == (seg & 0x7F)) return font[i].c;
    return '?';
}

static void report_state(harness_t *h) {
    /* Players as a person reads them: player p's 4 digits, leftmost first; '.' after a lit decimal point. */
    printf("@state {\"players\":[");
    for (int p = 0; p < 4; p++) {
        int chip = p / 2, base = (p % 2) ? 0 : 4;
        printf("%s\"", p ? "," : "");
        for (int pos = 0; pos < 4; pos++) {
            uint8_t seg = h->digit[chip][base + 3 - pos];
            putchar(seg_char(seg));
            if (seg & 0x80) putchar('.');
        }
        putchar('"');
    }
    printf("],\"raw\":[");
    for (int c = 0; c < CHIPS; c++) {
        printf("%s[", c ? "," : "");
        for (int d = 0; d < 8; d++) printf("%s%u", d ? "," : "", h->digit[c][d]);
        printf("]");
    }
    printf("],\"max7219\":[");
    for (int c = 0; c < CHIPS; c++)
        printf("%s{\"decode\":%u,\"intensity\":%u,\"scan_limit\":%u,\"shutdown\":%u,\"test\":%u}", c ? "," : "",
               h->reg_decode[c], h->reg_intensity[c], h->reg_scan[c], h->reg_shutdown[c], h->reg_test[c]);
    printf("],\"leds\":[");
    for (int l = 0; l < LEDS; l++) /* wire order is G R B; report R G B */
        printf("%s[%u,%u,%u]", l ? "," : "", h->led_grb[3 * l + 1], h->led_grb[3 * l], h->led_grb[3 * l + 2]);
    printf("],\"led_frames\":%u,\"latches\":%u,\"rx_backlog\":%zu,\"sim_ms\":%llu}\n", h->led_frames,
           h->latches, h->rx_len, (unsigned long long)(h->avr->cycle / (FREQ / 1000)));
    fflush(stdout);
}

/* -------------------------------------------------------------------------------------- commands */
static void set_button(harness_t *h, int b, int pressed) {
    avr_raise_irq(h->button_irq[b], pressed ? 0 : 1); /* active low, pulled up */
}

static void command(harness_t *h, char *line) {
    char verb[32] = "";
    double a = 0, b = 0, c = 0;
    int n = sscanf(line, "%31s %lf %lf %lf", verb, &a, &b, &c);
    if (n < 1) return;
    uint64_t t = now_us();
    if (!strcmp(verb, "state")) {
        report_state(h);
        return;
    } else if (!strcmp(verb, "press") && n >= 2 && a >= 0 && a < 2) {
        int btn = (int)a;
        uint64_t hold = (uint64_t)((n >= 3 ? b : 80) * 1000);
        uint64_t at = device_us(h);
        h->held[btn] = 1;
        h->bounce_until_us[btn] = at + 4000; /* 4 ms of contact bounce before it settles */
        h->release_at_us[btn] = at + hold;
        set_button(h, btn, 1);
    } else if (!strcmp(verb, "fault") && n == 4) {
        h->drop = a;
        h->corrupt = b;
        h->mute = c != 0;
    } else if (!strcmp(verb, "garbage") && n >= 2) {
        for (int i = 0; i < (int)a; i++) {
            uint8_t byte = (uint8_t)(rnd(h) * 256);
            if (n >= 3 && b != 0) { /* towards the host, as line noise on the device's TX would be */
                if (h->master >= 0 && write(h->master, &byte, 1) < 0) break;
            } else {
                rx_push(h, byte);
            }
        }
    } else if (!strcmp(verb, "unplug") && n == 2) {
        pty_close(h);
        h->replug_at_us = t + (uint64_t)(a * 1000);
    } else if (!strcmp(verb, "jump") && n == 2) {
        h->avr->pc = (avr_flashaddr_t)a; /* e.g. to "cli; rjmp ." (_exit): a firmware hung by a glitch */
    } else if (!strcmp(verb, "reset")) {
        avr_reset(h->avr);
        h->rx_len = 0;
    } else if (!strcmp(verb, "quit")) {
        pty_close(h);
        exit(0);
    } else {
        printf("@error unknown command: %s\n", line);
        fflush(stdout);
        return;
    }
    printf("@ok\n");
    fflush(stdout);
}

static void buttons_step(harness_t *h, uint64_t t) {
    for (int b = 0; b < 2; b++) {
        if (!h->held[b]) continue;
        if (t < h->bounce_until_us[b]) {
            set_button(h, b, (t / 1000) & 1); /* toggles every step (1 ms) while bouncing */
        } else if (t >= h->release_at_us[b]) {
            set_button(h, b, 0);
            h->held[b] = 0;
        } else {
            set_button(h, b, 1);
        }
    }
}

static void noop_sleep(avr_t *avr, avr_cycle_count_t how_long) {
    (void)avr;
    (void)how_long; /* pacing is done by the main loop's poll() */
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s FIRMWARE.elf PTY_LINK [SEED]\n", argv[0]);
        return 2;
    }
    static harness_t h; /* large (the fifo); one per process */
    h.link_path = argv[2];
    h.rng = argc > 3 ? strtoull(argv[3], NULL, 10) | 1 : 88172645463325252ULL;
    h.master = h.slave = -1;

    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(argv[1], &fw) != 0) {
        fprintf(stderr, "cannot read %s\n", argv[1]);
        return 1;
    }
    avr_t *avr = avr_make_mcu_by_name("atmega328p");
    if (!avr || avr_init(avr) != 0) {
        fprintf(stderr, "simavr has no atmega328p\n");
        return 1;
    }
    avr_load_firmware(avr, &fw);
    avr->frequency = FREQ;
    avr->sleep = noop_sleep;
    avr->log = LOG_ERROR;
    h.avr = avr;

    uint32_t flags = 0;
    avr_ioctl(avr, AVR_IOCTL_UART_GET_FLAGS('0'), &flags);
    flags &= ~AVR_UART_FLAG_STDIO; /* our stdout is the control channel */
    avr_ioctl(avr, AVR_IOCTL_UART_SET_FLAGS('0'), &flags);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUTPUT), uart_out_cb, &h);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XON), uart_xon_cb, &h);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_OUT_XOFF), uart_xoff_cb, &h);
    h.uart_in = avr_io_getirq(avr, AVR_IOCTL_UART_GETIRQ('0'), UART_IRQ_INPUT);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_SPI_GETIRQ(0), SPI_IRQ_OUTPUT), spi_out_cb, &h);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('B'), 2), cs_cb, &h);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), ws_cb, &h);
    h.button_irq[0] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);
    h.button_irq[1] = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 3);
    set_button(&h, 0, 0);
    set_button(&h, 1, 0);
    h.cs_low = 0;

    pty_open(&h);
    h.wall_base_us = now_us();
    h.cycle_base = avr->cycle;
    char cmd[512];
    size_t cmd_len = 0;

    for (;;) {
        /* Run 1 ms of simulated time, then service the outside world. */
        avr_cycle_count_t target = avr->cycle + FREQ / 1000;
        while (avr->cycle < target) {
            int st = avr_run(avr);
            if (st == cpu_Done || st == cpu_Crashed) {
                printf("@crashed state %d\n", st);
                fflush(stdout);
                return 1;
            }
        }
        uint64_t t = now_us();
        buttons_step(&h, device_us(&h));
        uart_feed(&h);
        if (h.master < 0 && h.replug_at_us && t >= h.replug_at_us) {
            h.replug_at_us = 0;
            pty_open(&h);
        }
        /* Pace to real time, so the firmware's timeouts mean what they say; if the simulation falls
         * behind (a loaded machine), let it run slow rather than race to catch up. */
        int64_t sim_us = (int64_t)((avr->cycle - h.cycle_base) / (FREQ / 1000000));
        int64_t wall_us = (int64_t)(t - h.wall_base_us);
        if (wall_us - sim_us > 100000) {
            h.wall_base_us = t - (uint64_t)sim_us;
            wall_us = sim_us;
        }
        int timeout_ms = sim_us > wall_us ? (int)((sim_us - wall_us) / 1000) : 0;
        struct pollfd fds[2] = {{.fd = 0, .events = POLLIN}, {.fd = h.master, .events = POLLIN}};
        int nfds = h.master >= 0 ? 2 : 1;
        if (poll(fds, nfds, timeout_ms) <= 0) continue;
        if (fds[0].revents & (POLLIN | POLLHUP)) {
            ssize_t r = read(0, cmd + cmd_len, sizeof cmd - 1 - cmd_len);
            if (r <= 0) { /* the test process went away */
                pty_close(&h);
                return 0;
            }
            cmd_len += (size_t)r;
            char *nl;
            while ((nl = memchr(cmd, '\n', cmd_len)) != NULL) {
                *nl = 0;
                command(&h, cmd);
                size_t used = (size_t)(nl - cmd) + 1;
                memmove(cmd, nl + 1, cmd_len - used);
                cmd_len -= used;
            }
            if (cmd_len == sizeof cmd - 1) cmd_len = 0; /* an overlong line: drop it */
        }
        if (nfds == 2 && (fds[1].revents & POLLIN)) {
            uint8_t buf[256];
            ssize_t r = read(h.master, buf, sizeof buf);
            for (ssize_t i = 0; i < r; i++) {
                uint8_t byte = buf[i];
                if (line_fault(&h, &byte)) rx_push(&h, byte);
            }
        }
    }
}
