/* Runs the board firmware in simavr with its UART on a pseudo-terminal, so the host bridge
 * talks to it through pyserial exactly as to a real board.
 *
 *   simharness FIRMWARE.elf [--fast] [--seed N]
 *
 * Prints "PORT /dev/pts/N" once the UART is connected. Then reads commands on stdin, one a
 * line: "press [MS]" (the roll button on D2, held MS ms, default 30), "bounce [N]" (N
 * chattering contacts, then a 30 ms press), "rolls N [MS]" (N presses back to back, each held
 * MS ms and released as long, default 11: just over the 10 ms debounce), "reset" (the board's
 * reset line), "quit". Prints "LEDS <hex>" with the G,R,B bytes the strip received whenever
 * they change.
 * Paced to real time unless --fast: simavr would otherwise run the 16 MHz part many
 * times faster than the real one, and timings (baud rate, heartbeats) would be wrong.
 * A floating A0 is emulated with random millivolts, so every boot gets a different seed. */
#define _GNU_SOURCE
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <simavr/avr_adc.h>
#include <simavr/avr_extint.h>
#include <simavr/avr_ioport.h>
#include <simavr/parts/uart_pty.h>
#include <simavr/sim_avr.h>
#include <simavr/sim_elf.h>
#include <simavr/sim_time.h>

/* WS2812 decoder on D6: a high pulse of 9+ cycles is a 1 (the firmware makes 13 vs 5);
 * 50 us of low ends a frame, which is printed as "LEDS <hex G,R,B...>" when it changed. */
#define LED_BYTES (128 * 3)
static uint8_t led_now[LED_BYTES], led_last[LED_BYTES];
static int led_bits, led_last_len = -1;
static uint64_t led_rise, led_fall;
static avr_t *g_avr;

static void led_emit(void)
{
    int n = led_bits / 8;
    if (n && (n != led_last_len || memcmp(led_now, led_last, (size_t)n))) {
        printf("LEDS ");
        for (int i = 0; i < n; i++)
            printf("%02x", led_now[i]);
        printf("\n");
        fflush(stdout);
        memcpy(led_last, led_now, (size_t)n);
        led_last_len = n;
    }
    led_bits = 0;
}

static void led_pin(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)param;
    uint64_t now = g_avr->cycle;
    if (value) {
        if (led_bits && now - led_fall > 800)
            led_emit();
        led_rise = now;
        return;
    }
    led_fall = now;
    if (led_bits < LED_BYTES * 8) {
        int bit = now - led_rise >= 9;
        uint8_t *b = &led_now[led_bits / 8];
        *b = (uint8_t)((led_bits % 8) ? (*b << 1) | bit : bit);
        led_bits++;
    }
}

static atomic_int cmd_press_ms, cmd_bounce, cmd_rolls, cmd_rolls_ms, cmd_reset, cmd_quit;
static int bounce_left, train_left, train_ms, train_down;
static avr_irq_t *button_irq, *adc_irq;
static unsigned int noise_state;

static void *read_commands(void *arg)
{
    (void)arg;
    char line[64];
    while (fgets(line, sizeof line, stdin)) {
        if (!strncmp(line, "press", 5))
            atomic_store(&cmd_press_ms, line[5] ? atoi(line + 5) : 30);
        else if (!strncmp(line, "bounce", 6))
            atomic_store(&cmd_bounce, line[6] ? atoi(line + 6) : 6);
        else if (!strncmp(line, "rolls", 5)) {
            int n = 0, ms = 11;
            if (sscanf(line + 5, "%d %d", &n, &ms) >= 1 && n > 0 && ms > 0) {
                atomic_store(&cmd_rolls_ms, ms);   /* before the count, which starts it */
                atomic_store(&cmd_rolls, n);
            }
        } else if (!strncmp(line, "reset", 5))
            atomic_store(&cmd_reset, 1);
        else if (!strncmp(line, "quit", 4))
            break;
    }
    atomic_store(&cmd_quit, 1);   /* stdin closed: the test is gone */
    return NULL;
}

/* Button presses run in simulated time, so a busy host cannot shorten or merge them. */
static avr_cycle_count_t release_button(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)avr;
    (void)when;
    (void)param;
    avr_raise_irq(button_irq, 1);
    return 0;
}

static avr_cycle_count_t bounce_step(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)param;
    if (bounce_left > 0) {   /* contact chatter: 1 ms down, 1 ms up, under the debounce time */
        avr_raise_irq(button_irq, (uint32_t)(bounce_left-- % 2));
        return when + avr_usec_to_cycles(avr, 1000);
    }
    avr_raise_irq(button_irq, 0);   /* then held down for 30 ms */
    avr_cycle_timer_register_usec(avr, 30000, release_button, NULL);
    return 0;
}

/* A train of presses in simulated time: as fast as the debounce allows, however slow the
 * host is, so thousands of rolls take seconds (the fairness test). */
static avr_cycle_count_t train_step(avr_t *avr, avr_cycle_count_t when, void *param)
{
    (void)param;
    avr_cycle_count_t next = when + avr_usec_to_cycles(avr, (uint32_t)train_ms * 1000);
    if (train_down) {
        avr_raise_irq(button_irq, 1);
        train_down = 0;
        return train_left > 0 ? next : 0;
    }
    avr_raise_irq(button_irq, 0);
    train_down = 1;
    train_left--;
    return next;
}

/* Each conversion the firmware starts reads a fresh noisy voltage on A0. */
static void adc_trigger(struct avr_irq_t *irq, uint32_t value, void *param)
{
    (void)irq;
    (void)value;
    avr_raise_irq((avr_irq_t *)param, 1000 + (uint32_t)(rand_r(&noise_state) % 3000));
}

/* The roll button is on D2, which is also INT0. The firmware never enables INT0, but simavr
 * polls a low INT0 pin every cycle ("strict" level triggering), which runs the whole
 * simulation 3 times slower while the button is held. A reset turns the polling on again. */
static void no_int0_polling(avr_t *avr)
{
    avr_extint_set_strict_lvl_trig(avr, 0, 0);
}

static double now_s(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + ts.tv_nsec / 1e9;
}

int main(int argc, char **argv)
{
    const char *path = NULL;
    int fast = 0;
    noise_state = (unsigned int)time(NULL) ^ (unsigned int)getpid();
    for (int i = 1; i < argc; i++) {
        if (!strcmp(argv[i], "--fast"))
            fast = 1;
        else if (!strcmp(argv[i], "--seed") && i + 1 < argc)
            noise_state = (unsigned int)strtoul(argv[++i], NULL, 0);
        else
            path = argv[i];
    }
    if (!path) {
        fprintf(stderr, "usage: simharness FIRMWARE.elf [--fast] [--seed N]\n");
        return 2;
    }
    elf_firmware_t fw;
    memset(&fw, 0, sizeof fw);
    if (elf_read_firmware(path, &fw)) {
        fprintf(stderr, "simharness: cannot read %s\n", path);
        return 2;
    }
    avr_t *avr = avr_make_mcu_by_name("atmega328p");
    if (!avr) {
        fprintf(stderr, "simharness: simavr has no atmega328p\n");
        return 2;
    }
    avr_init(avr);
    avr->frequency = 16000000;
    avr->log = LOG_NONE;
    avr_load_firmware(avr, &fw);
    no_int0_polling(avr);

    static uart_pty_t pty;
    uart_pty_init(avr, &pty);
    uart_pty_connect(&pty, '0');

    g_avr = avr;
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 6), led_pin, NULL);
    button_irq = avr_io_getirq(avr, AVR_IOCTL_IOPORT_GETIRQ('D'), 2);
    avr_raise_irq(button_irq, 1);                      /* released: pulled up */
    adc_irq = avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_ADC0);
    avr_irq_register_notify(avr_io_getirq(avr, AVR_IOCTL_ADC_GETIRQ, ADC_IRQ_OUT_TRIGGER),
                            adc_trigger, adc_irq);

    printf("PORT %s\n", pty.pty.slavename);            /* not the shared /tmp/simavr-uart0 */
    fflush(stdout);

    pthread_t reader;
    pthread_create(&reader, NULL, read_commands, NULL);

    double start = now_s();
    uint64_t start_cycle = avr->cycle;
    for (unsigned long n = 0;; n++) {
        int state = avr_run(avr);
        if (state == cpu_Done || state == cpu_Crashed) {
            fprintf(stderr, "simharness: firmware stopped (state %d)\n", state);
            _exit(1);
        }
        if (n % 2048)
            continue;
        if (led_bits && avr->cycle - led_fall > 800)
            led_emit();
        int ms = atomic_exchange(&cmd_press_ms, 0);
        if (ms > 0) {
            avr_raise_irq(button_irq, 0);
            avr_cycle_timer_register_usec(avr, (uint32_t)ms * 1000, release_button, NULL);
        }
        int edges = atomic_exchange(&cmd_bounce, 0);
        if (edges > 0) {
            bounce_left = edges * 2;
            avr_cycle_timer_register_usec(avr, 10, bounce_step, NULL);
        }
        int rolls = atomic_exchange(&cmd_rolls, 0);
        if (rolls > 0 && train_left == 0 && !train_down) {
            train_left = rolls;
            train_ms = atomic_load(&cmd_rolls_ms);
            avr_cycle_timer_register_usec(avr, 10, train_step, NULL);
        }
        if (atomic_exchange(&cmd_reset, 0)) {
            avr_reset(avr);
            no_int0_polling(avr);
            /* the reset cleared the pin; an irq ignores a repeat of its last value */
            avr_raise_irq(button_irq, 0);
            avr_raise_irq(button_irq, 1);
            start = now_s();
            start_cycle = avr->cycle;
        }
        if (atomic_load(&cmd_quit))
            _exit(0);   /* not uart_pty_stop: it can hang; the pty goes with the process */
        if (!fast) {
            double ahead = (double)(avr->cycle - start_cycle) / avr->frequency
                           - (now_s() - start);
            if (ahead > 0.001)
                usleep((useconds_t)(ahead * 1e6));
        }
    }
}
