/* The board's side of the wire protocol (docs/protocol.md): framing, parsing, state.
 *
 * Portable C99 with no AVR headers, so the same file is compiled for the host and fuzzed
 * there (host/fwhost.c) against the Python reference model (firmware_bridge/device.py).
 */
#ifndef PROTO_H
#define PROTO_H

#include <stdint.h>

/* The newest protocol version this build speaks; it speaks every one from FW_PROTOCOL_MIN
 * (docs/protocol.md, "Versions"). `make PROTOCOL=1` builds a board that speaks only version 1,
 * as firmware 1.0 did: the tests run the host's fallback against it. */
#ifndef FW_PROTOCOL_VERSION
#define FW_PROTOCOL_VERSION 2
#endif
#define FW_PROTOCOL_MIN 1
#define FW_PIECEPACK_PROTOCOL 2            /* the first version with the piecepack die */
#define FW_VERSION_MAJOR 1
#define FW_VERSION_MINOR (FW_PROTOCOL_VERSION >= 2 ? 1 : 0)   /* 1.0 spoke only version 1 */
#define FW_MAX_LEDS 128
#define FW_PALETTE 16
#define FW_RING 16
#define FW_MAX_PAYLOAD 128                 /* type + seq + body + CRC */
#define FW_MAX_ENCODED (FW_MAX_PAYLOAD + 2) /* COBS adds one byte per 254 */
#define FW_MAX_BODY (FW_MAX_PAYLOAD - 4)

enum { MSG_HELLO = 0x01, MSG_PING, MSG_SET_PALETTE, MSG_SET_LEDS, MSG_SET_RANGE, MSG_FILL,
       MSG_SET_EFFECT, MSG_BRIGHTNESS, MSG_STATUS_LEDS, MSG_DIE_MODE, MSG_EVENTS_SINCE,
       MSG_ACK = 0x80, MSG_EVENT, MSG_HEARTBEAT, MSG_ERROR };

enum { CODE_OK = 0, CODE_BAD_CRC, CODE_BAD_FRAME, CODE_UNKNOWN_TYPE, CODE_BAD_LENGTH,
       CODE_BAD_VALUE, CODE_BAD_VERSION, CODE_OVERFLOW, CODE_WATCHDOG_RESET, CODE_EVENTS_LOST,
       CODE_NOT_READY };

enum { EFFECT_STEADY = 0, EFFECT_BLINK = 1, EFFECT_PULSE = 2 };
enum { EVENT_ROLL = 1, EVENT_BUTTON = 2 };
/* DIE_MODE values; a roll's event carries the mode in `a` (its number of faces) */
enum { DIE_OFF = 0, DIE_D4 = 4, DIE_PIECEPACK = 6, DIE_D8 = 8 };

typedef struct {
    uint16_t seq;
    uint8_t kind, a, b;
} fw_event;

typedef struct fw_state {
    /* what the strip shows */
    uint8_t led_count, status_base;   /* led_count 0: no HELLO yet */
    uint8_t colors[FW_MAX_LEDS];      /* palette index per LED */
    uint8_t effects[FW_MAX_LEDS];
    uint8_t palette[FW_PALETTE][3];
    uint8_t brightness, blink_cs, pulse_cs, die_mode;
    uint8_t protocol;                 /* the version the last good HELLO asked for; 0: none */
    uint8_t dirty;                    /* the strip needs redrawing */
    /* events kept for replay */
    fw_event ring[FW_RING];
    uint8_t ring_start, ring_len;
    uint16_t last_event_seq, boot_id;
    /* link */
    uint8_t last_seq, have_last_seq, last_code, tx_seq, rx_errors;
    uint8_t rx[FW_MAX_ENCODED];
    uint8_t rx_len, rx_overflow;
    /* where finished frames go (the UART on the board, a buffer on the host) */
    void (*send)(const uint8_t *frame, uint8_t len);
} fw_state;

uint16_t fw_crc16(const uint8_t *data, uint8_t len);
void fw_init(fw_state *fw, uint16_t boot_id, void (*send)(const uint8_t *, uint8_t));
/* Feed one received byte; returns 1 when it completed a frame (handled or dropped). */
uint8_t fw_rx_byte(fw_state *fw, uint8_t byte);
void fw_push_event(fw_state *fw, uint8_t kind, uint8_t a, uint8_t b);
void fw_heartbeat(fw_state *fw, uint16_t uptime_s);
void fw_error(fw_state *fw, uint8_t code, uint8_t detail);

#endif
