/* Pins and limits of the LED/die board (docs/hardware.md has the wiring). */
#ifndef BOARD_H
#define BOARD_H

#include <avr/io.h>

#define LED_PORT PORTD      /* WS2812 data: D6 (PD6) through a 330 ohm resistor */
#define LED_DDR DDRD
#define LED_BIT PD6
#define BUTTON_PIN PIND     /* roll button: D2 (PD2) to GND, internal pull-up */
#define BUTTON_PORT PORTD
#define BUTTON_BIT PD2
#define ONBOARD_DDR DDRB    /* the Uno/Nano "L" LED, D13 (PB5): blinks with the heartbeat */
#define ONBOARD_PORT PORTB
#define ONBOARD_BIT PB5
#define ENTROPY_ADC 0       /* A0 left floating: its noise seeds the die */

#ifndef POWER_BUDGET_MA
#define POWER_BUDGET_MA 1500  /* the strip's share of the 5 V supply; see hardware.md */
#endif
#define MA_PER_CHANNEL 20     /* a WS2812 channel at full 255 */

#endif
