/* LED/die board firmware for the ATmega328P (Arduino Uno/Nano): the wire protocol on the
 * UART, a WS2812 strip, a debounced roll button, a fair d4/d8/piecepack die, a watchdog. */
#include <avr/eeprom.h>
#include <avr/interrupt.h>
#include <avr/io.h>
#include <avr/wdt.h>
#include <string.h>

#include "board.h"
#include "proto.h"
#include "rng.h"
#include "ws2812.h"

#ifndef BAUD
#define BAUD 115200
#endif
/* 16 MHz cannot make 115200 exactly: with U2X it is 117647 (+2.1 %), as on every Arduino,
 * and the Uno's 16U2 USB bridge makes the same rate. A UART tolerates about 4 %. */
#define BAUD_TOL 3
#include <util/setbaud.h>

#define RX_RING 64   /* a power of two; a whole frame fits while the strip is written */
#define TX_RING 256

static fw_state fw;
static volatile uint8_t rx_ring[RX_RING], rx_head, rx_tail;
static volatile uint8_t tx_ring[TX_RING], tx_head, tx_tail;  /* uint8_t wraps at 256 */
static volatile uint32_t millis;
static volatile uint8_t pressed, debounce, held;
static volatile uint32_t press_entropy;
static uint8_t grb[FW_MAX_LEDS * 3];
uint8_t mcusr_at_boot __attribute__((section(".noinit")));

/* Read MCUSR and stop the watchdog before main: a watchdog reset leaves it running. */
void early(void) __attribute__((naked, used, section(".init3")));
void early(void)
{
    mcusr_at_boot = MCUSR;
    MCUSR = 0;
    wdt_disable();
}

ISR(USART_RX_vect)
{
    uint8_t b = UDR0, next = (uint8_t)((rx_head + 1) & (RX_RING - 1));
    if (next != rx_tail) {   /* full: drop; the CRC catches the damaged frame */
        rx_ring[rx_head] = b;
        rx_head = next;
    }
}

ISR(USART_UDRE_vect)
{
    if (tx_head == tx_tail) {
        UCSR0B &= (uint8_t)~_BV(UDRIE0);
        return;
    }
    UDR0 = tx_ring[tx_tail++];
}

ISR(TIMER0_COMPA_vect)
{
    millis++;
    /* Integrating debounce with hysteresis: the integrator must reach 10 (ms, net) to count
     * as pressed and fall back to 0 to count as released, so bounces on either edge of a
     * press make exactly one roll. */
    uint8_t down = !(BUTTON_PIN & _BV(BUTTON_BIT));
    if (down && debounce < 10)
        debounce++;
    else if (!down && debounce > 0)
        debounce--;
    if (debounce == 10 && !held) {
        held = 1;
        pressed = 1;
        press_entropy = ((uint32_t)TCNT1 << 16) ^ millis;   /* human timing, 62.5 ns */
    } else if (debounce == 0) {
        held = 0;
    }
}

static void uart_send(const uint8_t *frame, uint8_t len)
{
    for (uint8_t i = 0; i < len; i++) {
        while ((uint8_t)(tx_head + 1) == tx_tail)
            wdt_reset();   /* wait for the UDRE interrupt to make room */
        tx_ring[tx_head++] = frame[i];
        UCSR0B |= _BV(UDRIE0);
    }
}

static uint32_t now_ms(void)
{
    uint32_t t;
    uint8_t s = SREG;
    cli();
    t = millis;
    SREG = s;
    return t;
}

static uint8_t scale8(uint8_t v, uint8_t s) { return (uint8_t)(((uint16_t)v * (s + 1)) >> 8); }

static uint8_t effects_active(void)
{
    for (uint8_t i = 0; i < fw.led_count; i++)
        if (fw.effects[i])
            return 1;
    return 0;
}

/* Palette, effects and brightness to G,R,B bytes, capped to the power budget; then out. */
static void redraw(uint32_t t)
{
    uint32_t sum = 0;
    uint8_t n = fw.led_count;
    for (uint8_t i = 0; i < n; i++) {
        const uint8_t *c = fw.palette[fw.colors[i] & 0x0F];
        uint8_t s = fw.brightness;
        if (fw.effects[i] == EFFECT_BLINK) {
            uint16_t period = (uint16_t)fw.blink_cs * 10;
            if (t % period >= period / 2)
                s = 0;
        } else if (fw.effects[i] == EFFECT_PULSE) {
            uint16_t period = (uint16_t)fw.pulse_cs * 10, ph = (uint16_t)(t % period);
            uint16_t half = period / 2 ? period / 2 : 1;
            uint16_t tri = ph < half ? ph : (uint16_t)(period - ph);
            s = scale8(s, (uint8_t)((uint32_t)tri * 255 / half));
        }
        grb[3 * i] = scale8(c[1], s);
        grb[3 * i + 1] = scale8(c[0], s);
        grb[3 * i + 2] = scale8(c[2], s);
        sum += (uint16_t)grb[3 * i] + grb[3 * i + 1] + grb[3 * i + 2];
    }
    uint32_t ma = sum * MA_PER_CHANNEL / 255;
    if (ma > POWER_BUDGET_MA) {   /* dim everything evenly rather than brown out */
        uint8_t k = (uint8_t)((uint32_t)POWER_BUDGET_MA * 255 / ma);
        for (uint16_t j = 0; j < (uint16_t)n * 3; j++)
            grb[j] = scale8(grb[j], k);
    }
    ws2812_send(grb, (uint16_t)n * 3);
    fw.dirty = 0;
}

static uint32_t hardware_seed(void)
{
    /* The floating A0 pin's lowest bits are noise; a few hundred samples give the die's
     * starting state. The press time of each roll is stirred in as well (rng_stir). */
    uint32_t seed = 0;
    ADMUX = _BV(REFS0) | ENTROPY_ADC;
    ADCSRA = _BV(ADEN) | _BV(ADPS2) | _BV(ADPS1) | _BV(ADPS0);
    for (uint16_t i = 0; i < 256; i++) {
        ADCSRA |= _BV(ADSC);
        while (ADCSRA & _BV(ADSC))
            ;
        uint16_t v = ADC;
        seed = (seed << 3 | seed >> 29) ^ v ^ ((uint32_t)TCNT1 << 11);
    }
    ADCSRA = 0;
    return seed;
}

int main(void)
{
    LED_DDR |= _BV(LED_BIT);
    ONBOARD_DDR |= _BV(ONBOARD_BIT);
    BUTTON_PORT |= _BV(BUTTON_BIT);          /* pull-up: the button pulls to GND */
    TCCR1B = _BV(CS10);                      /* Timer1 free-running at 16 MHz: timestamps */
    TCCR0A = _BV(WGM01);                     /* Timer0: 1 kHz tick */
    TCCR0B = _BV(CS01) | _BV(CS00);
    OCR0A = 249;
    TIMSK0 = _BV(OCIE0A);
    /* U2X before UBRR: simavr derives the byte time when UBRR is written (hardware does
     * not care about the order) */
#if USE_2X
    UCSR0A |= _BV(U2X0);
#else
    UCSR0A &= (uint8_t)~_BV(U2X0);
#endif
    UBRR0H = UBRRH_VALUE;
    UBRR0L = UBRRL_VALUE;
    UCSR0B = _BV(RXEN0) | _BV(TXEN0) | _BV(RXCIE0);
    UCSR0C = _BV(UCSZ01) | _BV(UCSZ00);

    rng_seed(hardware_seed());
    uint16_t boots = (uint16_t)(eeprom_read_word((uint16_t *)0) + 1);
    eeprom_update_word((uint16_t *)0, boots);
    uint16_t boot_id = (uint16_t)(boots ^ ((uint16_t)rng_byte() << 8 | rng_byte()));
    fw_init(&fw, boot_id, uart_send);
    wdt_enable(WDTO_500MS);
    sei();

    redraw(0);                               /* the strip may hold a picture from before */
    fw_heartbeat(&fw, 0);                    /* tells a connected host we (re)started */
    if (mcusr_at_boot & _BV(WDRF))
        fw_error(&fw, CODE_WATCHDOG_RESET, mcusr_at_boot);

    uint32_t next_beat = 1000, next_frame = 0;
    for (;;) {
        wdt_reset();
        while (rx_tail != rx_head) {
            uint8_t b = rx_ring[rx_tail];
            rx_tail = (uint8_t)((rx_tail + 1) & (RX_RING - 1));
            /* a finished frame changed the picture: draw it before the host sends more
             * (it waits for the ACK, which leaves only after this) */
            if (fw_rx_byte(&fw, b) && fw.dirty)
                redraw(now_ms());
        }
        uint32_t t = now_ms();
        if (pressed) {
            pressed = 0;
            rng_stir(press_entropy);
            if (fw.die_mode)
                fw_push_event(&fw, EVENT_ROLL, fw.die_mode, rng_roll(fw.die_mode));
            else
                fw_push_event(&fw, EVENT_BUTTON, 0, 1);
        }
        if ((int32_t)(t - next_frame) >= 0 && fw.rx_len == 0 && rx_tail == rx_head) {
            next_frame = t + 40;             /* effects at 25 frames a second, between frames */
            if (fw.dirty || effects_active())
                redraw(t);
        }
        if ((int32_t)(t - next_beat) >= 0) {
            next_beat += 1000;
            ONBOARD_PORT ^= _BV(ONBOARD_BIT);
            fw_heartbeat(&fw, (uint16_t)(t / 1000));
        }
    }
}
