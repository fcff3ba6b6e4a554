/* The board's side of the wire protocol; mirrors firmware_bridge/device.py byte for byte. */
#include "proto.h"

#include <string.h>

static const uint8_t default_palette[FW_PALETTE][3] = {
    {0, 0, 0}, {255, 255, 255}, {255, 0, 0}, {255, 120, 0},
    {0, 255, 0}, {0, 0, 255}, {0, 255, 255}, {255, 0, 255},
    {255, 255, 0}, {255, 60, 0}, {128, 0, 255}, {40, 40, 40},
    {60, 0, 0}, {0, 60, 0}, {0, 0, 60}, {255, 80, 160},
};

uint16_t fw_crc16(const uint8_t *data, uint8_t len)
{
    uint16_t crc = 0xFFFF;   /* CRC-16/CCITT-FALSE, bitwise: 2 KB of RAM has no room for a table */
    while (len--) {
        crc ^= (uint16_t)(*data++) << 8;
        for (uint8_t i = 0; i < 8; i++)
            crc = (crc & 0x8000) ? (uint16_t)((crc << 1) ^ 0x1021) : (uint16_t)(crc << 1);
    }
    return crc;
}

void fw_init(fw_state *fw, uint16_t boot_id, void (*send)(const uint8_t *, uint8_t))
{
    memset(fw, 0, sizeof *fw);
    memcpy(fw->palette, default_palette, sizeof default_palette);
    fw->brightness = 64;
    fw->blink_cs = 50;
    fw->pulse_cs = 150;
    fw->boot_id = boot_id;
    fw->send = send;
}

/* Build type|seq|body|crc, COBS-encode it, add the delimiter, hand it to send(). */
static void send_msg(fw_state *fw, uint8_t type, const uint8_t *body, uint8_t n)
{
    uint8_t raw[FW_MAX_PAYLOAD];
    uint8_t out[FW_MAX_ENCODED + 1];
    fw->tx_seq++;
    raw[0] = type;
    raw[1] = fw->tx_seq;
    memcpy(raw + 2, body, n);
    uint16_t crc = fw_crc16(raw, (uint8_t)(n + 2));
    raw[n + 2] = (uint8_t)(crc >> 8);
    raw[n + 3] = (uint8_t)crc;
    uint8_t len = (uint8_t)(n + 4), o = 1, code_at = 0, code = 1;
    for (uint8_t i = 0; i < len; i++) {   /* len < 254: a single pass, no 0xFF blocks */
        if (raw[i] == 0) {
            out[code_at] = code;
            code_at = o++;
            code = 1;
        } else {
            out[o++] = raw[i];
            code++;
        }
    }
    out[code_at] = code;
    out[o++] = 0;
    fw->send(out, o);
}

static void send_ack(fw_state *fw, uint8_t seq, uint8_t code, const uint8_t *extra, uint8_t n)
{
    uint8_t body[2 + 8];
    body[0] = seq;
    body[1] = code;
    memcpy(body + 2, extra, n);
    send_msg(fw, MSG_ACK, body, (uint8_t)(2 + n));
}

static void send_event(fw_state *fw, const fw_event *e)
{
    uint8_t body[5] = {(uint8_t)(e->seq >> 8), (uint8_t)e->seq, e->kind, e->a, e->b};
    send_msg(fw, MSG_EVENT, body, 5);
}

void fw_error(fw_state *fw, uint8_t code, uint8_t detail)
{
    uint8_t body[2] = {code, detail};
    send_msg(fw, MSG_ERROR, body, 2);
}

void fw_heartbeat(fw_state *fw, uint16_t uptime_s)
{
    uint8_t body[7] = {(uint8_t)(fw->boot_id >> 8), (uint8_t)fw->boot_id,
                       (uint8_t)(fw->last_event_seq >> 8), (uint8_t)fw->last_event_seq,
                       (uint8_t)(uptime_s >> 8), (uint8_t)uptime_s, fw->rx_errors};
    send_msg(fw, MSG_HEARTBEAT, body, 7);
}

/* Event numbers run 1..65535 and then 1 again (0: none yet). Whether event a comes after
 * event since is serial-number arithmetic (RFC 1982): less than half the circle ahead. */
static uint16_t next_event_seq(uint16_t seq)
{
    return (uint16_t)(seq % 0xFFFF + 1);
}

static uint8_t event_after(uint16_t a, uint16_t since)
{
    if (a == 0)
        return 0;
    if (since == 0)
        return 1;
    uint16_t ahead = (uint16_t)(((uint32_t)a + 0xFFFF - since) % 0xFFFF);
    return ahead != 0 && ahead <= 0xFFFF / 2;
}

void fw_push_event(fw_state *fw, uint8_t kind, uint8_t a, uint8_t b)
{
    fw->last_event_seq = next_event_seq(fw->last_event_seq);
    uint8_t slot = (uint8_t)((fw->ring_start + fw->ring_len) % FW_RING);
    if (fw->ring_len == FW_RING)
        fw->ring_start = (uint8_t)((fw->ring_start + 1) % FW_RING);  /* forget the oldest */
    else
        fw->ring_len++;
    fw->ring[slot] = (fw_event){fw->last_event_seq, kind, a, b};
    send_event(fw, &fw->ring[slot]);
}

/* Is the body well-formed for its type? Mirrors protocol.decode_payload exactly (and, built
 * with PROTOCOL=1, device.DeviceCore(protocol=1)). */
static uint8_t well_formed(uint8_t type, const uint8_t *b, uint8_t n)
{
    uint8_t i;
    switch (type) {
    case MSG_HELLO:
        return n == 3 && b[1] > 0 && b[1] <= FW_MAX_LEDS && b[2] <= b[1];
    case MSG_PING:
        return n == 0;
    case MSG_SET_PALETTE:
        return n >= 4 && (n - 1) % 3 == 0 && b[0] + (n - 1) / 3 <= FW_PALETTE;
    case MSG_SET_LEDS:
        if (n < 2 || n % 2)
            return 0;
        for (i = 0; i < n; i += 2)
            if (b[i] >= FW_MAX_LEDS || b[i + 1] >= FW_PALETTE)
                return 0;
        return 1;
    case MSG_SET_RANGE:
        if (n < 3 || b[1] == 0 || b[0] + b[1] > FW_MAX_LEDS || n != 2 + (b[1] + 1) / 2)
            return 0;
        return b[1] % 2 == 0 || (b[n - 1] >> 4) == 0;
    case MSG_FILL:
        return n == 1 && b[0] < FW_PALETTE;
    case MSG_SET_EFFECT:
        if (n < 2 || b[1] < 1 || b[0] > EFFECT_PULSE)
            return 0;
        for (i = 2; i < n; i++)
            if (b[i] >= FW_MAX_LEDS)
                return 0;
        return 1;
    case MSG_BRIGHTNESS:
        return n == 1;
    case MSG_STATUS_LEDS:
        if (n < 2 || b[0] == 0 || b[0] > FW_MAX_LEDS || n != 1 + (b[0] + 1) / 2)
            return 0;
        return b[0] % 2 == 0 || (b[n - 1] >> 4) == 0;
    case MSG_DIE_MODE:
        /* piecepack is well-formed from version 2 on; in a version 1 session apply() refuses
         * it. A PROTOCOL=1 build does not know the value at all, like firmware 1.0. */
        return n == 1 && (b[0] == DIE_OFF || b[0] == DIE_D4 || b[0] == DIE_D8
                          || (FW_PROTOCOL_VERSION >= FW_PIECEPACK_PROTOCOL
                              && b[0] == DIE_PIECEPACK));
    case MSG_EVENTS_SINCE:
        return n == 2;
    }
    return 0;
}

static uint8_t nibble(const uint8_t *packed, uint8_t i)
{
    return (uint8_t)((packed[i / 2] >> (4 * (i % 2))) & 0x0F);
}

/* Apply a well-formed command; returns the ACK code. All-or-nothing: check, then change. */
static uint8_t apply(fw_state *fw, uint8_t type, const uint8_t *b, uint8_t n,
                     uint8_t *extra, uint8_t *extra_len)
{
    uint8_t i, count, leds = fw->led_count;
    if (type == MSG_HELLO) {
        if (b[0] < FW_PROTOCOL_MIN || b[0] > FW_PROTOCOL_VERSION) {
            extra[0] = FW_PROTOCOL_VERSION;   /* the newest we speak: the host may fall back */
            *extra_len = 1;
            return CODE_BAD_VERSION;
        }
        fw->protocol = b[0];                  /* the session speaks the host's version */
        if (fw->protocol < FW_PIECEPACK_PROTOCOL && fw->die_mode == DIE_PIECEPACK)
            fw->die_mode = DIE_OFF;           /* a version 1 host cannot read piecepack rolls */
        fw->led_count = b[1];
        fw->status_base = b[2];
        fw->dirty = 1;
        uint8_t info[8] = {fw->protocol, FW_VERSION_MAJOR, FW_VERSION_MINOR, FW_MAX_LEDS,
                           (uint8_t)(fw->boot_id >> 8), (uint8_t)fw->boot_id,
                           (uint8_t)(fw->last_event_seq >> 8), (uint8_t)fw->last_event_seq};
        memcpy(extra, info, 8);
        *extra_len = 8;
        return CODE_OK;
    }
    if (type == MSG_PING)
        return CODE_OK;
    if (!leds)
        return CODE_NOT_READY;
    switch (type) {
    case MSG_EVENTS_SINCE: {
        uint16_t since = (uint16_t)(b[0] << 8 | b[1]);
        uint16_t oldest = fw->ring_len ? fw->ring[fw->ring_start].seq
                                       : next_event_seq(fw->last_event_seq);
        count = 0;
        for (i = 0; i < fw->ring_len; i++)
            if (event_after(fw->ring[(fw->ring_start + i) % FW_RING].seq, since))
                count++;
        extra[0] = (uint8_t)(oldest >> 8);
        extra[1] = (uint8_t)oldest;
        extra[2] = count;
        *extra_len = 3;
        return CODE_OK;   /* the events follow the ACK: see handle_frame */
    }
    case MSG_SET_PALETTE:
        memcpy(fw->palette[b[0]], b + 1, n - 1);
        break;
    case MSG_SET_LEDS:
        for (i = 0; i < n; i += 2)
            if (b[i] >= leds)
                return CODE_BAD_VALUE;
        for (i = 0; i < n; i += 2)
            fw->colors[b[i]] = b[i + 1];
        break;
    case MSG_SET_RANGE:
        if (b[0] + b[1] > leds)
            return CODE_BAD_VALUE;
        for (i = 0; i < b[1]; i++)
            fw->colors[b[0] + i] = nibble(b + 2, i);
        break;
    case MSG_FILL:
        memset(fw->colors, b[0], leds);
        break;
    case MSG_SET_EFFECT:
        for (i = 2; i < n; i++)
            if (b[i] >= leds)
                return CODE_BAD_VALUE;
        if (b[0] == EFFECT_BLINK)
            fw->blink_cs = b[1];
        else if (b[0] == EFFECT_PULSE)
            fw->pulse_cs = b[1];
        for (i = 2; i < n; i++)
            fw->effects[b[i]] = b[0];
        break;
    case MSG_BRIGHTNESS:
        fw->brightness = b[0];
        break;
    case MSG_STATUS_LEDS:
        if (fw->status_base + b[0] > leds)
            return CODE_BAD_VALUE;
        for (i = 0; i < b[0]; i++)
            fw->colors[fw->status_base + i] = nibble(b + 1, i);
        break;
    case MSG_DIE_MODE:
        if (b[0] == DIE_PIECEPACK && fw->protocol < FW_PIECEPACK_PROTOCOL)
            return CODE_BAD_VALUE;            /* as a version 1 board answers */
        fw->die_mode = b[0];
        break;
    }
    fw->dirty = 1;
    return CODE_OK;
}

static uint8_t repeatable(uint8_t type)
{
    return type == MSG_HELLO || type == MSG_PING || type == MSG_EVENTS_SINCE;
}

static void handle_payload(fw_state *fw, const uint8_t *p, uint8_t len)
{
    uint8_t type = p[0], seq = p[1], n = (uint8_t)(len - 2);
    const uint8_t *body = p + 2;
    uint8_t extra[8] = {0}, extra_len = 0, code;
    if (type < MSG_HELLO || type > MSG_EVENTS_SINCE) {
        send_ack(fw, seq, CODE_UNKNOWN_TYPE, extra, 0);
        return;
    }
    if (!well_formed(type, body, n)) {
        send_ack(fw, seq, CODE_BAD_VALUE, extra, 0);
        return;
    }
    if (!repeatable(type) && fw->led_count && fw->have_last_seq && seq == fw->last_seq) {
        send_ack(fw, seq, fw->last_code, extra, 0);   /* a retry: answer, don't redo */
        return;
    }
    code = apply(fw, type, body, n, extra, &extra_len);
    if (!repeatable(type) || (type == MSG_HELLO && code == CODE_OK)) {
        fw->last_seq = seq;
        fw->last_code = code;
        fw->have_last_seq = 1;
    }
    send_ack(fw, seq, code, extra, extra_len);
    if (type == MSG_EVENTS_SINCE && code == CODE_OK) {
        uint16_t since = (uint16_t)(body[0] << 8 | body[1]);
        for (uint8_t i = 0; i < fw->ring_len; i++) {
            const fw_event *e = &fw->ring[(fw->ring_start + i) % FW_RING];
            if (event_after(e->seq, since))
                send_event(fw, e);
        }
    }
}

/* COBS-decode rx[0..rx_len) in place; returns the decoded length or -1. */
static int16_t cobs_decode_in_place(uint8_t *buf, uint8_t n)
{
    uint8_t i = 0, o = 0;
    while (i < n) {
        uint8_t code = buf[i];
        if (code == 0 || (uint16_t)i + code > n)
            return -1;
        for (uint8_t k = 1; k < code; k++)
            buf[o++] = buf[i + k];      /* o <= i always: safe in place */
        i = (uint8_t)(i + code);
        if (code != 0xFF && i < n)
            buf[o++] = 0;
    }
    return o;
}

static void drop(fw_state *fw, uint8_t code)
{
    if (fw->rx_errors < 255)
        fw->rx_errors++;
    fw_error(fw, code, 0);
}

uint8_t fw_rx_byte(fw_state *fw, uint8_t byte)
{
    if (byte != 0) {
        if (fw->rx_len < FW_MAX_ENCODED)
            fw->rx[fw->rx_len++] = byte;
        else
            fw->rx_overflow = 1;
        return 0;
    }
    uint8_t n = fw->rx_len, overflow = fw->rx_overflow;
    fw->rx_len = 0;
    fw->rx_overflow = 0;
    if (overflow) {
        drop(fw, CODE_OVERFLOW);
        return 1;
    }
    if (n == 0)
        return 0;                       /* idle fill */
    int16_t len = cobs_decode_in_place(fw->rx, n);
    if (len < 4 || len > FW_MAX_PAYLOAD) {
        drop(fw, CODE_BAD_FRAME);
        return 1;
    }
    uint16_t crc = (uint16_t)(fw->rx[len - 2] << 8 | fw->rx[len - 1]);
    if (fw_crc16(fw->rx, (uint8_t)(len - 2)) != crc) {
        drop(fw, CODE_BAD_CRC);
        return 1;
    }
    handle_payload(fw, fw->rx, (uint8_t)(len - 2));
    return 1;
}
