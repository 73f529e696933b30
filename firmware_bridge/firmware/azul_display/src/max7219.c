#include "max7219.h"

#include <avr/io.h>

enum { REG_DIGIT0 = 0x01, REG_DECODE = 0x09, REG_INTENSITY = 0x0A, REG_SCAN = 0x0B, REG_SHUTDOWN = 0x0C,
       REG_TEST = 0x0F };

static void spi(uint8_t b) {
    SPDR = b;
    while (!(SPSR & _BV(SPIF))) {
    }
}

/* One register write to every chip: the first 16 bits shifted out end up in the chip farthest away. */
static void write_all(uint8_t reg, const uint8_t data[MAX_CHIPS]) {
    MAX_CS_PORT &= ~_BV(MAX_CS_BIT);
    for (int8_t chip = MAX_CHIPS - 1; chip >= 0; chip--) {
        spi(reg);
        spi(data[chip]);
    }
    MAX_CS_PORT |= _BV(MAX_CS_BIT); /* rising LOAD latches the 16 bits sitting in each chip */
}

static void write_same(uint8_t reg, uint8_t value) {
    uint8_t data[MAX_CHIPS];
    for (uint8_t i = 0; i < MAX_CHIPS; i++) data[i] = value;
    write_all(reg, data);
}

void max7219_init(void) {
    MAX_CS_PORT |= _BV(MAX_CS_BIT);
    MAX_CS_DDR |= _BV(MAX_CS_BIT);
    DDRB |= _BV(PB3) | _BV(PB5);            /* MOSI, SCK */
    SPCR = _BV(SPE) | _BV(MSTR) | _BV(SPR0); /* master, mode 0, clk/16 = 1 MHz: forgiving of long wires */
}

void max7219_configure(uint8_t intensity) {
    write_same(REG_TEST, 0);
    write_same(REG_SCAN, 7);
    write_same(REG_DECODE, 0);
    write_same(REG_INTENSITY, intensity & 0x0F);
    write_same(REG_SHUTDOWN, 1);
}

void max7219_show(const uint8_t digits[MAX_CHIPS][8]) {
    uint8_t data[MAX_CHIPS];
    for (uint8_t d = 0; d < 8; d++) {
        for (uint8_t chip = 0; chip < MAX_CHIPS; chip++) data[chip] = digits[chip][d];
        write_all(REG_DIGIT0 + d, data);
    }
}
