//! The inputs of `tests/data/gozip_vectors.jsonl`, generated exactly as
//! `tests/data/gozip_vectors.go.txt` generates them (each vector's `input_crc32` checks it).
//! Shared by the encoder's unit tests and `tests/framing_paddle_go.rs` (whose snappy vectors
//! come from the same generator), through `tests/support`.

/// xorshift64, as in the Go generator.
pub struct Rng(pub u64);

impl Rng {
    /// The next value; the state must not be zero.
    #[allow(clippy::should_implement_trait)]
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }
}

const WORDS: [&str; 10] = [
    "alpha",
    "beta",
    "gamma",
    "delta",
    "{\"type\":",
    "\"HEARTBEAT\"}",
    "0123456789",
    "\n",
    "record",
    "io",
];

/// `n` bytes of `kind` from `seed`.
pub fn generate(kind: &str, n: usize, seed: u64) -> Vec<u8> {
    let mut r = Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15).wrapping_add(1));
    let mut out = Vec::with_capacity(n + 300);
    while out.len() < n {
        match kind {
            "random" => out.push((r.next() >> 32) as u8),
            "zeros" => out.push(0),
            "text" => {
                out.extend_from_slice(WORDS[(r.next() % 10) as usize].as_bytes());
                out.push(b' ');
            }
            "runs" => {
                let b = (r.next() >> 40) as u8;
                let k = (r.next() % 300) as usize + 1;
                out.extend(std::iter::repeat_n(b, k));
            }
            "mixed" => {
                if (out.len() / 8192) % 2 == 0 {
                    out.extend_from_slice(WORDS[(r.next() % 10) as usize].as_bytes());
                } else {
                    out.push((r.next() >> 32) as u8);
                }
            }
            "dna" => out.push(b"ACGT"[(r.next() >> 62) as usize]),
            "nibbles" => out.push((r.next() >> 60) as u8),
            "segments" => {
                let k = (r.next() % 40000) as usize + 1;
                if r.next().is_multiple_of(2) {
                    for _ in 0..k {
                        out.push((r.next() >> 32) as u8);
                    }
                } else {
                    let w = WORDS[(r.next() % 10) as usize].as_bytes();
                    out.extend((0..k).map(|i| w[i % w.len()]));
                }
            }
            "echo" => {
                if out.len() > 64 && r.next().is_multiple_of(8) {
                    let back = ((r.next() % 40000) as usize + 1).min(out.len());
                    let k = (r.next() % 300) as usize + 3;
                    let start = out.len() - back;
                    for i in 0..k {
                        out.push(out[start + i]);
                    }
                } else {
                    out.push((r.next() >> 32) as u8);
                }
            }
            "sparse" => {
                const ALPHABET: [u8; 17] = [
                    0, 12, 16, 27, 28, 29, 30, 31, 32, 33, 34, 174, 175, 176, 177, 200, 255,
                ];
                out.push(ALPHABET[(r.next() % ALPHABET.len() as u64) as usize]);
            }
            "edge" => {
                let k = out.len() / 331;
                out.extend_from_slice(&[b'W', b'X', b'Y', b'Z', (k % 99) as u8]);
                for _ in 0..326 {
                    out.push((r.next() >> 32) as u8);
                }
            }
            other => panic!("unknown kind {other}"),
        }
    }
    out.truncate(n);
    out
}

/// `count` records of `kind`, each up to `max_len` bytes, from `seed`.
pub fn records(kind: &str, count: usize, max_len: usize, seed: u64) -> Vec<Vec<u8>> {
    let mut r = Rng(seed.wrapping_mul(0x2545_F491_4F6C_DD1D).wrapping_add(7));
    (0..count)
        .map(|_| {
            let n = (r.next() % (max_len as u64 + 1)) as usize;
            generate(kind, n, r.next() % 1_000_000)
        })
        .collect()
}

/// A chunk payload as PaddlePaddle lays it out: each record as u32 LE length and bytes.
pub fn chunk_payload<R: AsRef<[u8]>>(records: &[R]) -> Vec<u8> {
    let mut raw = Vec::new();
    for r in records {
        let r = r.as_ref();
        raw.extend_from_slice(&(r.len() as u32).to_le_bytes());
        raw.extend_from_slice(r);
    }
    raw
}

/// One line of `gozip_vectors.jsonl`.
pub struct Vector {
    pub line: String,
    pub kind: String,
    pub level: i64,
    pub input_size: usize,
    pub input_crc32: u32,
    pub gzip_size: usize,
    pub gzip_crc32: u32,
    /// For `records:*` kinds: (count, max_len).
    pub records: Option<(usize, usize)>,
    pub size: usize,
    pub seed: u64,
    /// For the `hex` kind: the input itself.
    pub hex: Option<String>,
}

impl Vector {
    /// The vector's input bytes (for `records:*` kinds, the chunk payload).
    pub fn input(&self) -> Vec<u8> {
        if let Some(hex) = &self.hex {
            return (0..hex.len())
                .step_by(2)
                .map(|i| u8::from_str_radix(&hex[i..i + 2], 16).unwrap())
                .collect();
        }
        match self.record_set() {
            Some(records) => chunk_payload(&records),
            None => generate(&self.kind, self.size, self.seed),
        }
    }

    /// The records of a `records:*` vector.
    pub fn record_set(&self) -> Option<Vec<Vec<u8>>> {
        let (count, max_len) = self.records?;
        let kind = self.kind.strip_prefix("records:").unwrap();
        Some(records(kind, count, max_len, self.seed))
    }
}

/// Parses the vector file; a minimal reader of its flat one-line JSON objects, so that the
/// encoder's unit tests need no JSON dependency.
pub fn vectors(text: &str) -> Vec<Vector> {
    text.lines()
        .filter(|l| !l.trim().is_empty())
        .map(|line| {
            let field = |name: &str| -> Option<&str> {
                let key = format!("\"{name}\":");
                let start = line.find(&key)? + key.len();
                let rest = &line[start..];
                let end = rest.find([',', '}']).unwrap();
                Some(rest[..end].trim_matches('"'))
            };
            let num = |name: &str| -> u64 { field(name).unwrap().parse().unwrap() };
            let kind = field("kind").unwrap().to_string();
            let records = kind
                .starts_with("records:")
                .then(|| (num("count") as usize, num("max_len") as usize));
            Vector {
                line: line.to_string(),
                level: field("level").unwrap().parse().unwrap(),
                input_size: num("input_size") as usize,
                input_crc32: num("input_crc32") as u32,
                gzip_size: num("gzip_size") as usize,
                gzip_crc32: num("gzip_crc32") as u32,
                size: field("size").map_or(0, |s| s.parse().unwrap()),
                seed: num("seed"),
                records,
                hex: field("hex").map(str::to_string),
                kind,
            }
        })
        .collect()
}
