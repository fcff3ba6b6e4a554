/* WS2812/WS2812B output on one pin, 800 kHz, for a 16 MHz ATmega328P. */
#ifndef WS2812_H
#define WS2812_H

#include <stdint.h>

/* Send n bytes (G, R, B per LED) with interrupts off, then latch. */
void ws2812_send(const uint8_t *grb, uint16_t n);

#endif
