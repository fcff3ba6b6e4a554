/* WS2812 bit-banging at 16 MHz: 20 cycles per bit (1.25 us); a 0 is high for 5 cycles
 * (0.31 us), a 1 for 13 (0.81 us), both inside the datasheet's windows. Cycle counts are in
 * the comments; the loop is the classic one used by the Adafruit and light_ws2812 libraries. */
#include "ws2812.h"

#include <avr/interrupt.h>
#include <avr/io.h>
#include <util/delay.h>

#include "board.h"

void ws2812_send(const uint8_t *grb, uint16_t n)
{
    if (!n)
        return;
    volatile uint8_t *port = &LED_PORT;
    uint8_t bit = 8, byte = *grb++;
    uint8_t sreg = SREG;
    cli();   /* the timing cannot survive an interrupt; see docs/protocol.md on the UART */
    uint8_t hi = LED_PORT | _BV(LED_BIT);
    uint8_t lo = LED_PORT & (uint8_t)~_BV(LED_BIT);
    uint8_t next = lo;
    __asm__ volatile(
        "1:                      \n\t"  /* clk  (T = 0)               */
        "st   %a[port], %[hi]    \n\t"  /* 2    high      (T = 2)     */
        "sbrc %[byte], 7         \n\t"  /* 1-2  if bit 7              */
        "mov  %[next], %[hi]     \n\t"  /* 0-1    next = hi (T = 4)   */
        "dec  %[bit]             \n\t"  /* 1              (T = 5)     */
        "st   %a[port], %[next]  \n\t"  /* 2    low for 0 (T = 7)     */
        "mov  %[next], %[lo]     \n\t"  /* 1              (T = 8)     */
        "breq 2f                 \n\t"  /* 1-2  byte done?            */
        "rol  %[byte]            \n\t"  /* 1              (T = 10)    */
        "rjmp .+0                \n\t"  /* 2              (T = 12)    */
        "nop                     \n\t"  /* 1              (T = 13)    */
        "st   %a[port], %[lo]    \n\t"  /* 2    low for 1 (T = 15)    */
        "nop                     \n\t"  /* 1              (T = 16)    */
        "rjmp .+0                \n\t"  /* 2              (T = 18)    */
        "rjmp 1b                 \n\t"  /* 2              (T = 20)    */
        "2:                      \n\t"  /*                (T = 10)    */
        "ldi  %[bit], 8          \n\t"  /* 1              (T = 11)    */
        "ld   %[byte], %a[ptr]+  \n\t"  /* 2              (T = 13)    */
        "st   %a[port], %[lo]    \n\t"  /* 2    low for 1 (T = 15)    */
        "nop                     \n\t"  /* 1              (T = 16)    */
        "sbiw %[count], 1        \n\t"  /* 2              (T = 18)    */
        "brne 1b                 \n"    /* 2              (T = 20)    */
        /* hi and lo are in-out on purpose: as plain inputs gcc may put lo in next's register
         * (they start equal), and every LED after the first 1 bit stays high. The simavr
         * tests caught exactly that. */
        : [port] "+e"(port), [byte] "+r"(byte), [bit] "+r"(bit), [next] "+r"(next),
          [count] "+w"(n), [ptr] "+e"(grb), [hi] "+r"(hi), [lo] "+r"(lo)
        :
        : "memory");
    SREG = sreg;
    _delay_us(60);   /* > 50 us low latches the colours */
}
