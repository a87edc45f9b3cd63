//! Compression of answers. What is the same for every buyer is compressed
//! once: a body kept beside its brotli and gzip forms (`Compressed`), each
//! made on first demand and then reused by every request that accepts it.
//! What differs per request (a page) goes through `encode` each time, with
//! a window no larger than the body (brotli's default 4 MiB window costs
//! more to set up than a 10 KB page costs to compress).

use std::io::Write;
use std::sync::OnceLock;

use bytes::Bytes;

/// A body encoding the client accepts (`Accept-Encoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Encoding {
    Identity,
    Gzip,
    Brotli,
}

impl Encoding {
    /// The best encoding an `Accept-Encoding` header allows: brotli before
    /// gzip at equal weight, neither when refused with `q=0` or not named.
    pub fn preferred(accept: Option<&str>) -> Encoding {
        let mut best = (Encoding::Identity, 0.0_f32);
        for (encoding, weight) in offered(accept) {
            let better = weight > best.1 || (weight == best.1 && encoding == Encoding::Brotli);
            if better {
                best = (encoding, weight);
            }
        }
        best.0
    }

    /// The encoding for a body compressed per request: gzip when accepted
    /// (brotli sets up more than it saves on a few kilobytes, and a server
    /// answering with it serves far fewer pages a second, `holdfast-bench
    /// pages`), else the best one.
    pub fn per_request(accept: Option<&str>) -> Encoding {
        if offered(accept).any(|(e, _)| e == Encoding::Gzip) {
            Encoding::Gzip
        } else {
            Encoding::preferred(accept)
        }
    }

    /// The `Content-Encoding` value, none for identity.
    pub fn header(self) -> Option<&'static str> {
        match self {
            Encoding::Identity => None,
            Encoding::Gzip => Some("gzip"),
            Encoding::Brotli => Some("br"),
        }
    }
}

/// The encodings `Accept-Encoding` allows, with their weights (those
/// refused with `q=0`, or with a weight that does not parse, left out).
fn offered(accept: Option<&str>) -> impl Iterator<Item = (Encoding, f32)> + '_ {
    accept.unwrap_or("").split(',').filter_map(|part| {
        let mut pieces = part.split(';');
        let name = pieces.next().unwrap_or("").trim();
        let encoding = if name.eq_ignore_ascii_case("br") {
            Encoding::Brotli
        } else if name.eq_ignore_ascii_case("gzip") || name.eq_ignore_ascii_case("x-gzip") {
            Encoding::Gzip
        } else {
            return None;
        };
        let weight = match pieces.find_map(|p| p.trim().strip_prefix("q=")) {
            Some(q) => q.trim().parse::<f32>().ok()?,
            None => 1.0,
        };
        (weight > 0.0).then_some((encoding, weight))
    })
}

/// How hard to compress: `Fast` for what is rebuilt as seats change,
/// `Best` for what never changes once built (a map's drawing).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Effort {
    Fast,
    Best,
}

/// A body and its compressed forms, made once each.
pub struct Compressed {
    raw: Bytes,
    effort: Effort,
    gzip: OnceLock<Bytes>,
    brotli: OnceLock<Bytes>,
}

impl Compressed {
    pub fn new(raw: impl Into<Bytes>, effort: Effort) -> Compressed {
        Compressed {
            raw: raw.into(),
            effort,
            gzip: OnceLock::new(),
            brotli: OnceLock::new(),
        }
    }

    pub fn raw(&self) -> &Bytes {
        &self.raw
    }

    /// The body in this encoding (compressed now if it is the first ask).
    pub fn encoded(&self, encoding: Encoding) -> Bytes {
        match encoding {
            Encoding::Identity => self.raw.clone(),
            Encoding::Gzip => self
                .gzip
                .get_or_init(|| encode(&self.raw, encoding, self.effort))
                .clone(),
            Encoding::Brotli => self
                .brotli
                .get_or_init(|| encode(&self.raw, encoding, self.effort))
                .clone(),
        }
    }
}

/// The body in this encoding.
pub fn encode(raw: &[u8], encoding: Encoding, effort: Effort) -> Bytes {
    match encoding {
        Encoding::Identity => Bytes::copy_from_slice(raw),
        Encoding::Gzip => gzip(raw, effort),
        Encoding::Brotli => brotli(raw, effort),
    }
}

fn gzip(raw: &[u8], effort: Effort) -> Bytes {
    match effort {
        Effort::Fast => gzip_fast(raw),
        Effort::Best => gzip_new(raw, flate2::Compression::best()),
    }
}

/// gzip by a compressor made for this body alone.
fn gzip_new(raw: &[u8], level: flate2::Compression) -> Bytes {
    let mut out = flate2::write::GzEncoder::new(Vec::with_capacity(raw.len() / 4), level);
    // Writing to memory cannot fail.
    let _ = out.write_all(raw);
    Bytes::from(out.finish().unwrap_or_default())
}

/// gzip's header as flate2 writes it: deflate, no name, no time, OS unknown.
const GZIP_HEADER: [u8; 10] = [0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255];

/// gzip for what is compressed per request (a page), with one compressor
/// per thread, reset for each body instead of a new one (and its ~250 KB
/// of tables) per page. Level 2: zlib-rs's level 1 is its quick mode, with
/// fixed Huffman codes only, which makes a page larger than miniz_oxide's
/// level 1 would; level 2 is its fast mode with each block's own codes, a
/// smaller page for about the same share of the server's time, where
/// higher levels take markedly more of it (`holdfast-bench pages`).
fn gzip_fast(raw: &[u8]) -> Bytes {
    const FAST_LEVEL: u32 = 2;
    use flate2::{Compress, Compression, FlushCompress, Status};
    use std::cell::RefCell;
    thread_local! {
        static DEFLATE: RefCell<Compress> = RefCell::new(Compress::new(Compression::new(FAST_LEVEL), false));
    }
    let mut out = Vec::with_capacity(raw.len() / 3 + 64);
    out.extend_from_slice(&GZIP_HEADER);
    let deflated = DEFLATE.with_borrow_mut(|deflate| {
        // Reset before, not after: a body that failed half way leaves
        // nothing behind for the next.
        deflate.reset();
        loop {
            let read = usize::try_from(deflate.total_in()).unwrap_or(usize::MAX);
            let rest = raw.get(read..).unwrap_or_default();
            match deflate.compress_vec(rest, &mut out, FlushCompress::Finish) {
                Ok(Status::StreamEnd) => return true,
                // Out of room: more, and on.
                Ok(Status::Ok | Status::BufError) => out.reserve(out.capacity().max(4096)),
                Err(_) => return false,
            }
        }
    });
    if !deflated {
        // Not seen: deflating memory into memory has nothing to fail on.
        return gzip_new(raw, Compression::new(FAST_LEVEL));
    }
    let mut crc = flate2::Crc::new();
    crc.update(raw);
    out.extend_from_slice(&crc.sum().to_le_bytes());
    // ISIZE: the length modulo 2^32, as gzip defines it.
    out.extend_from_slice(&(raw.len() as u32).to_le_bytes());
    Bytes::from(out)
}

fn brotli(raw: &[u8], effort: Effort) -> Bytes {
    // Quality 4 for what is rebuilt as seats change (a version's status
    // letters and page, up to four times a second on each instance):
    // quality 5's hasher clears a megabyte of tables for every body,
    // whatever its size, so on bodies this small it costs many times what
    // quality 4 does (and gzip is slower too), a cost an instance would
    // feel in an on-sale's rush; the few hundred bytes more per look at the
    // map are nothing beside that.
    // What is built once and kept for good (a map's drawing) gets 11: it
    // comes out clearly smaller than at 9, the time is paid once per map,
    // and every byte counts against the first visit's 600 KB budget.
    // The window fits the body (2^16 to 2^22 bytes).
    // A large body made on demand (the full JSON of 10,000 seats, 1.4 MB)
    // keeps quality 5: there the tables' setup is small beside the work,
    // and quality 4 would make it clearly larger.
    let quality = match effort {
        Effort::Fast if raw.len() >= 64 * 1024 => 5,
        Effort::Fast => 4,
        Effort::Best => 11,
    };
    let window = (usize::BITS - raw.len().max(1).leading_zeros()).clamp(16, 22);
    let mut out = Vec::with_capacity(raw.len() / 4);
    {
        let mut writer = brotli::CompressorWriter::new(&mut out, 64 * 1024, quality, window);
        let _ = writer.write_all(raw);
    }
    Bytes::from(out)
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::io::Read;

    #[test]
    fn brotli_first_unless_refused_or_weighed_lower() {
        use Encoding::*;
        let pick = |h: &str| Encoding::preferred(Some(h));
        assert_eq!(Encoding::preferred(None), Identity);
        assert_eq!(pick("gzip, deflate, br, zstd"), Brotli);
        assert_eq!(pick("gzip"), Gzip);
        assert_eq!(pick("br;q=0, gzip"), Gzip);
        assert_eq!(pick("br;q=0.5, gzip;q=0.8"), Gzip);
        assert_eq!(pick("BR"), Brotli);
        assert_eq!(pick("identity"), Identity);
        assert_eq!(pick("gzip;q=0"), Identity);
        assert_eq!(pick("gzip;q=nonsense"), Identity);
        assert_eq!(pick(""), Identity);
        let page = |h: &str| Encoding::per_request(Some(h));
        assert_eq!(page("gzip, deflate, br, zstd"), Gzip);
        assert_eq!(page("br"), Brotli);
        assert_eq!(page("gzip;q=0, br"), Brotli);
        assert_eq!(Encoding::per_request(None), Identity);
    }

    #[test]
    fn the_reused_compressor_gives_each_body_whole() {
        // Pages one after another through one thread's compressor: small,
        // empty, and one that does not compress (more out than the first
        // guess of room), each decoded by a reader that checks the CRC and
        // the length.
        let mut noise = Vec::new();
        let mut x: u32 = 2_463_534_242;
        for _ in 0..200_000 {
            x ^= x << 13;
            x ^= x >> 17;
            x ^= x << 5;
            noise.push(x as u8);
        }
        let bodies: Vec<Vec<u8>> = vec![
            "<p>seat A-1</p>".repeat(800).into_bytes(),
            Vec::new(),
            noise,
            "<p>seat B-2</p>".repeat(3).into_bytes(),
        ];
        for body in bodies.iter().chain(&bodies) {
            let gz = encode(body, Encoding::Gzip, Effort::Fast);
            let mut back = Vec::new();
            flate2::read::GzDecoder::new(&gz[..])
                .read_to_end(&mut back)
                .unwrap();
            assert_eq!(&back, body);
        }
    }

    #[test]
    fn each_form_decodes_to_the_body() {
        let body = "seat ".repeat(5000);
        for effort in [Effort::Fast, Effort::Best] {
            let c = Compressed::new(body.clone(), effort);
            let mut gz = String::new();
            flate2::read::GzDecoder::new(&c.encoded(Encoding::Gzip)[..])
                .read_to_string(&mut gz)
                .unwrap();
            assert_eq!(gz, body);
            let mut br = String::new();
            brotli::Decompressor::new(&c.encoded(Encoding::Brotli)[..], 4096)
                .read_to_string(&mut br)
                .unwrap();
            assert_eq!(br, body);
            assert!(c.encoded(Encoding::Brotli).len() < body.len() / 20);
            assert_eq!(c.encoded(Encoding::Identity), body.as_bytes());
        }
    }
}
