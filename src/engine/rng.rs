//! Seeds, their commitments, and the portable random stream that lives in every game state.
//!
//! Every random outcome of a campaign comes from one [`GameRng`] seeded with the campaign's
//! 32-byte [`Seed`]. The stream is ChaCha20 and the integer mapping below is our own, so a
//! stored log replays identically on any platform and any future version of `rand`.

use std::fmt;

use rand_chacha::ChaCha20Rng;
use rand_core::{Rng, SeedableRng};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};

/// A campaign's secret 32-byte seed.
#[derive(Clone, Copy, PartialEq, Eq, Hash)]
pub struct Seed(pub [u8; 32]);

impl Seed {
    /// A seed derived from a number: for simulations, tests and replays, never for campaigns.
    pub fn from_u64(n: u64) -> Seed {
        Seed::derive_from(&n.to_le_bytes(), "photofinish/u64-seed")
    }

    fn derive_from(bytes: &[u8], label: &str) -> Seed {
        let mut h = Sha256::new();
        h.update(label.as_bytes());
        h.update([0u8]);
        h.update(bytes);
        Seed(h.finalize().into())
    }

    /// A sub-seed for an independent stream (bots, tests), so it never disturbs the dice.
    pub fn derive(&self, label: &str) -> Seed {
        Seed::derive_from(&self.0, label)
    }

    /// The public SHA-256 commitment, published when the race starts.
    pub fn commitment(&self) -> String {
        hex::encode(Sha256::digest(self.0))
    }

    pub fn to_hex(&self) -> String {
        hex::encode(self.0)
    }

    pub fn from_hex(text: &str) -> Option<Seed> {
        let bytes = hex::decode(text.trim()).ok()?;
        let arr: [u8; 32] = bytes.try_into().ok()?;
        Some(Seed(arr))
    }
}

impl fmt::Debug for Seed {
    // A seed is secret until the reveal: never print it by accident.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Seed(commitment {})", &self.commitment()[..12])
    }
}

/// A seed as a replay script writes it: a small whole number (`"seed": 7`), or the full
/// 32 bytes in hex, as `verify` reveals a race's seed (`"seed": "9f2c…"`, 64 digits).
///
/// ```
/// use photofinish::engine::{ScriptSeed, Seed};
///
/// #[derive(serde::Deserialize)]
/// struct Script {
///     #[serde(default)]
///     seed: ScriptSeed,
/// }
///
/// // A small number stands for the seed `Seed::from_u64` derives from it.
/// let s: Script = serde_json::from_str(r#"{"seed": 7}"#)?;
/// assert_eq!(s.seed.0, Seed::from_u64(7));
///
/// // A race's revealed seed replays that very race.
/// let revealed = Seed::from_u64(42).to_hex();
/// let s: Script = serde_json::from_str(&format!(r#"{{"seed": "{revealed}"}}"#))?;
/// assert_eq!(s.seed.0.to_hex(), revealed);
///
/// // No seed is seed 0; anything else is refused.
/// let s: Script = serde_json::from_str("{}")?;
/// assert_eq!(s.seed.0, Seed::from_u64(0));
/// assert!(serde_json::from_str::<Script>(r#"{"seed": "nine"}"#).is_err());
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ScriptSeed(pub Seed);

impl Default for ScriptSeed {
    fn default() -> ScriptSeed {
        ScriptSeed(Seed::from_u64(0))
    }
}

impl<'de> Deserialize<'de> for ScriptSeed {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<ScriptSeed, D::Error> {
        #[derive(Deserialize)]
        #[serde(untagged)]
        enum Raw {
            Number(u64),
            Text(String),
        }
        let bad = || {
            serde::de::Error::custom(
                "seed must be a whole number or 64 hex digits (the seed `verify` reveals)",
            )
        };
        match Raw::deserialize(d).map_err(|_| bad())? {
            Raw::Number(n) => Ok(ScriptSeed(Seed::from_u64(n))),
            Raw::Text(text) => Seed::from_hex(&text).map(ScriptSeed).ok_or_else(bad),
        }
    }
}

/// Checks a revealed seed against a published commitment.
pub fn commitment_matches(seed: &Seed, commitment: &str) -> bool {
    seed.commitment().eq_ignore_ascii_case(commitment.trim())
}

/// The random stream kept inside a game's state (serde round-trips its position).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct GameRng(ChaCha20Rng);

impl GameRng {
    pub fn from_seed(seed: Seed) -> GameRng {
        GameRng(ChaCha20Rng::from_seed(seed.0))
    }

    /// Convenience for tests and simulations.
    pub fn seeded(n: u64) -> GameRng {
        GameRng::from_seed(Seed::from_u64(n))
    }

    pub fn next_u32(&mut self) -> u32 {
        self.0.next_u32()
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0.next_u64()
    }

    /// A uniform integer in `0..n` (0 when `n` is 0), by rejection so it is unbiased.
    pub fn below(&mut self, n: u32) -> u32 {
        if n <= 1 {
            return 0;
        }
        let zone = u32::MAX - (u32::MAX % n);
        loop {
            let x = self.next_u32();
            if x < zone {
                return x % n;
            }
        }
    }

    /// A uniform index into a slice of length `len` (0 when empty).
    pub fn index(&mut self, len: usize) -> usize {
        let n = u32::try_from(len).unwrap_or(u32::MAX);
        self.below(n) as usize
    }

    /// A uniform integer in `lo..=hi` (lo when hi < lo).
    pub fn range(&mut self, lo: i64, hi: i64) -> i64 {
        if hi <= lo {
            return lo;
        }
        let span = (hi - lo + 1).min(i64::from(u32::MAX)) as u32;
        lo + i64::from(self.below(span))
    }

    /// One roll of a die with `sides` faces, 1..=sides.
    pub fn die(&mut self, sides: u8) -> u8 {
        (self.below(u32::from(sides.max(1))) + 1) as u8
    }

    /// True with probability `num / den`.
    pub fn chance(&mut self, num: u32, den: u32) -> bool {
        den > 0 && self.below(den) < num
    }

    /// Fisher-Yates, in place.
    pub fn shuffle<T>(&mut self, items: &mut [T]) {
        for i in (1..items.len()).rev() {
            let j = self.index(i + 1);
            items.swap(i, j);
        }
    }

    /// A new stream drawn from this one: a world's future dice that no seat can know.
    pub fn fork(&mut self) -> GameRng {
        let mut bytes = [0u8; 32];
        for chunk in bytes.chunks_mut(8) {
            chunk.copy_from_slice(&self.next_u64().to_le_bytes());
        }
        GameRng::from_seed(Seed(bytes))
    }

    /// A uniformly chosen element.
    pub fn choose<'a, T>(&mut self, items: &'a [T]) -> Option<&'a T> {
        if items.is_empty() {
            None
        } else {
            items.get(self.index(items.len()))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stream_is_pinned() {
        // The portable stream must never change: stored campaigns replay from it.
        let mut rng = GameRng::from_seed(Seed([7u8; 32]));
        let dice: Vec<u8> = (0..12).map(|_| rng.die(6)).collect();
        let again: Vec<u8> = {
            let mut r = GameRng::from_seed(Seed([7u8; 32]));
            (0..12).map(|_| r.die(6)).collect()
        };
        assert_eq!(dice, again);
        assert!(dice.iter().all(|d| (1..=6).contains(d)));
        assert_eq!(
            Seed([0u8; 32]).commitment(),
            "66687aadf862bd776c8fc18b8e9f8e20089714856ee233b3902a591d0d5f2925"
        );
    }

    #[test]
    fn serde_keeps_position() {
        let mut rng = GameRng::seeded(3);
        rng.next_u64();
        let json = serde_json::to_string(&rng).unwrap();
        let mut back: GameRng = serde_json::from_str(&json).unwrap();
        assert_eq!(rng.next_u64(), back.next_u64());
    }

    #[test]
    fn below_is_in_range_and_covers() {
        let mut rng = GameRng::seeded(1);
        let mut seen = [0u32; 6];
        for _ in 0..6000 {
            seen[rng.below(6) as usize] += 1;
        }
        assert!(seen.iter().all(|&c| c > 800), "{seen:?}");
        assert_eq!(rng.below(0), 0);
        assert_eq!(rng.range(5, 5), 5);
    }

    #[test]
    fn number_seeds_are_pinned() {
        // Scripts and simulations name seeds by number: the mapping must never change.
        assert_eq!(
            Seed::from_u64(0).to_hex(),
            "98d30fa82ec52bb8aedc622201a21e11925f9b028d13c72439344afeff57a438"
        );
        assert_eq!(
            Seed::from_u64(7).to_hex(),
            "f3321e94d9b4af26ef03902b1c9f89964929b06822babdc945f49cf13e423c58"
        );
        assert_eq!(GameRng::seeded(7), GameRng::from_seed(Seed::from_u64(7)));
    }

    #[test]
    fn hex_round_trip_and_commitment_check() {
        let seed = Seed::from_u64(99);
        let back = Seed::from_hex(&seed.to_hex()).unwrap();
        assert_eq!(seed, back);
        assert!(commitment_matches(&seed, &seed.commitment()));
        assert!(!commitment_matches(&Seed::from_u64(98), &seed.commitment()));
        assert!(!format!("{seed:?}").contains(&seed.to_hex()));
    }
}
