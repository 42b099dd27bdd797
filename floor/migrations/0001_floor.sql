-- The floor: every table's journal rows as they arrived, verified, and what they tell.

-- One line per table: where its chain stands on the floor, and the table's state for the page.
CREATE TABLE floor_table (
    table_id     text PRIMARY KEY,
    head_seq     bigint NOT NULL DEFAULT 0,
    head_hash    text NOT NULL DEFAULT repeat('0', 64),
    keyed        boolean NOT NULL DEFAULT false,
    secret       bytea,
    shoe         integer NOT NULL DEFAULT 1,
    coup         integer NOT NULL DEFAULT 0,
    dealing      jsonb NOT NULL DEFAULT '{}',
    last_call    text,
    last_card_at timestamptz,
    last_row_at  timestamptz,
    arrived_at   timestamptz,
    shipper_seen timestamptz
);

-- The journal rows exactly as the table wrote them; never updated, never deleted.
CREATE TABLE journal_row (
    table_id   text NOT NULL REFERENCES floor_table,
    seq        bigint NOT NULL,
    at         text NOT NULL,
    kind       text NOT NULL,
    body       text NOT NULL,
    prev       text NOT NULL,
    hash       text NOT NULL,
    arrived_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    PRIMARY KEY (table_id, seq)
);

-- Rows the floor refused (a broken chain, a fork, a gap), kept aside as they came.
CREATE TABLE refused_row (
    id         bigserial PRIMARY KEY,
    table_id   text NOT NULL REFERENCES floor_table,
    seq        bigint NOT NULL,
    at         text NOT NULL,
    kind       text NOT NULL,
    body       text NOT NULL,
    prev       text NOT NULL,
    hash       text NOT NULL,
    reason     text NOT NULL,
    arrived_at timestamptz NOT NULL DEFAULT clock_timestamp(),
    UNIQUE (table_id, seq, hash)
);

CREATE TABLE coup (
    table_id    text NOT NULL REFERENCES floor_table,
    seq         bigint NOT NULL,
    shoe        integer NOT NULL,
    number      integer NOT NULL,
    at          timestamptz NOT NULL,
    result      text NOT NULL,
    couleur     text,
    noir_point  integer NOT NULL,
    rouge_point integer NOT NULL,
    noir_cards  text[] NOT NULL,
    rouge_cards text[] NOT NULL,
    calls       text[] NOT NULL,
    retracted   boolean NOT NULL DEFAULT false,
    PRIMARY KEY (table_id, seq, number)
);
CREATE INDEX coup_by_table_shoe ON coup (table_id, shoe, number);
CREATE INDEX coup_by_time ON coup (at);

CREATE TABLE card (
    table_id text NOT NULL REFERENCES floor_table,
    seq      bigint NOT NULL,
    idx      integer NOT NULL,
    shoe     integer NOT NULL,
    coup     integer NOT NULL,
    row_name text NOT NULL,
    card     text NOT NULL,
    point    integer NOT NULL,
    face_up  boolean NOT NULL,
    at       timestamptz NOT NULL,
    PRIMARY KEY (table_id, seq, idx)
);
CREATE INDEX card_by_table_shoe ON card (table_id, shoe, coup);

CREATE TABLE settlement (
    table_id text NOT NULL REFERENCES floor_table,
    seq      bigint NOT NULL,
    idx      integer NOT NULL,
    shoe     integer NOT NULL,
    coup     integer,
    at       timestamptz NOT NULL,
    seat     integer,
    chance   text,
    stake    numeric,
    action   text NOT NULL,
    amount   numeric,
    level    integer,
    PRIMARY KEY (table_id, seq, idx)
);
CREATE INDEX settlement_by_time ON settlement (at, table_id);

-- Alarms of the tables (warnings, device alarms, refused PINs) and of the floor itself.
CREATE TABLE alarm (
    id       bigserial PRIMARY KEY,
    table_id text NOT NULL REFERENCES floor_table,
    seq      bigint,
    at       timestamptz NOT NULL,
    source   text NOT NULL CHECK (source IN ('table', 'floor')),
    code     text NOT NULL,
    message  text NOT NULL
);
CREATE INDEX alarm_newest ON alarm (at DESC);

CREATE TABLE correction (
    table_id text NOT NULL REFERENCES floor_table,
    seq      bigint NOT NULL,
    idx      integer NOT NULL,
    at       timestamptz NOT NULL,
    action   text NOT NULL,
    who      text NOT NULL,
    why      text NOT NULL,
    detail   text NOT NULL,
    PRIMARY KEY (table_id, seq, idx)
);
CREATE INDEX correction_newest ON correction (at DESC);

-- The floor's own settings: the page's password hash.
CREATE TABLE floor_setting (key text PRIMARY KEY, value text NOT NULL);
