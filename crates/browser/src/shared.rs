//! `Shared<T>`: a copy-on-write value that remembers its own fingerprint.
//!
//! The explorer copies the whole simulator state at every choice point and fingerprints the
//! state at every one it reaches. Most of the state does not change from one unit to the next
//! (one unit touches one event loop, a promise or two), so the parts live behind `Shared`:
//! copying is a non-atomic reference-count increment (a state never crosses threads), writing
//! (through `DerefMut`) copies the part only when another state still shares it, and hashing
//! feeds the part's cached 128-bit XXH3 digest instead of the part itself. The digest depends only on the value (never on an address), so the
//! fingerprint of a state is the same on every machine and in every run.

use std::cell::OnceCell;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::{Deref, DerefMut};
use std::rc::Rc;

#[derive(Clone)]
struct Inner<T> {
    value: T,
    /// Kept as two `u64`s: a `u128` would align every part to 16 bytes, which takes the
    /// allocator's slower aligned path on each copy.
    digest: OnceCell<[u64; 2]>,
}

/// A shared, copy-on-write `T` with a cached digest (see the module documentation).
pub struct Shared<T>(Rc<Inner<T>>);

impl<T> Shared<T> {
    pub fn new(value: T) -> Shared<T> {
        Shared(Rc::new(Inner { value, digest: OnceCell::new() }))
    }
}

impl<T: Clone> Shared<T> {
    /// The value, copied only if another state still shares it.
    pub fn into_inner(self) -> T {
        match Rc::try_unwrap(self.0) {
            Ok(inner) => inner.value,
            Err(shared) => shared.value.clone(),
        }
    }
}

impl<T: Hash> Shared<T> {
    /// The value's XXH3-128 digest, computed once per version of the value.
    pub fn digest(&self) -> u128 {
        let [lo, hi] = *self.0.digest.get_or_init(|| {
            let digest = digest128(&self.0.value);
            [digest as u64, (digest >> 64) as u64]
        });
        u128::from(hi) << 64 | u128::from(lo)
    }
}

/// The XXH3-128 digest of a value's `Hash` bytes.
pub fn digest128<T: Hash + ?Sized>(value: &T) -> u128 {
    let mut bytes = ByteHasher { len: 0, inline: [0; INLINE], spill: Vec::new() };
    value.hash(&mut bytes);
    xxh3_128(bytes.bytes())
}

/// XXH3-128 of `bytes`, as one function every caller shares. Inlined, XXH3's code (a path for
/// each length class) was copied into the digest of every `Shared` part type; an exploration
/// runs several of those digests per step, and the copies evicted each other from the
/// instruction cache: one shared copy cut the simulated instruction-cache misses of exploring
/// the three-executions fixture by 13 % (`valgrind --tool=callgrind --cache-sim=yes`).
#[inline(never)]
fn xxh3_128(bytes: &[u8]) -> u128 {
    xxhash_rust::xxh3::xxh3_128(bytes)
}

/// The bytes a `ByteHasher` keeps on the stack; a longer part's bytes move to the heap.
const INLINE: usize = 256;

/// The signed `Hasher` writes, as the unsigned ones of the same width (`isize` as 64 bits), so a
/// digest is the same on every platform. Used inside both hashers' `impl Hasher`.
macro_rules! signed_writes_as_unsigned {
    () => {
        #[inline]
        fn write_i8(&mut self, v: i8) {
            self.write_u8(v as u8);
        }

        #[inline]
        fn write_i16(&mut self, v: i16) {
            self.write_u16(v as u16);
        }

        #[inline]
        fn write_i32(&mut self, v: i32) {
            self.write_u32(v as u32);
        }

        #[inline]
        fn write_i64(&mut self, v: i64) {
            self.write_u64(v as u64);
        }

        #[inline]
        fn write_i128(&mut self, v: i128) {
            self.write_u128(v as u128);
        }

        #[inline]
        fn write_isize(&mut self, v: isize) {
            self.write_u64(v as i64 as u64);
        }
    };
}

/// A `Hasher` that collects the bytes `Hash` writes, to digest them in one pass (XXH3's
/// streaming interface copies every small write into its buffer, which costs more than the
/// hashing itself). Most parts are short: their bytes stay in a buffer on the stack (no
/// allocation, no shared pool); the first write that does not fit moves them all to `spill`.
struct ByteHasher {
    /// The bytes in `inline` (at most `INLINE`); meaningless once `spill` holds the bytes.
    len: usize,
    inline: [u8; INLINE],
    /// All the bytes, once they outgrew `inline` (empty until then).
    spill: Vec<u8>,
}

impl ByteHasher {
    fn bytes(&self) -> &[u8] {
        if self.spill.is_empty() {
            &self.inline[..self.len]
        } else {
            &self.spill
        }
    }

    /// Appends a fixed-size write (the integers: one store when it fits).
    #[inline(always)]
    fn push<const N: usize>(&mut self, bytes: [u8; N]) {
        if self.len + N <= INLINE {
            self.inline[self.len..self.len + N].copy_from_slice(&bytes);
            self.len += N;
        } else {
            self.spill(&bytes);
        }
    }

    /// Appends bytes that do not fit in `inline` (or do not need to, once spilled).
    #[cold]
    #[inline(never)]
    fn spill(&mut self, bytes: &[u8]) {
        if self.spill.is_empty() {
            self.spill.reserve(2 * INLINE + bytes.len());
            self.spill.extend_from_slice(&self.inline[..self.len]);
            // Every later write takes this path.
            self.len = INLINE;
        }
        self.spill.extend_from_slice(bytes);
    }
}

/// Integers are written little-endian and `usize`/`isize` as 64 bits, so a digest is the same on
/// every platform (the `Hasher` defaults use native byte order and width).
impl Hasher for ByteHasher {
    #[inline]
    fn write(&mut self, bytes: &[u8]) {
        if bytes.len() <= INLINE - self.len {
            self.inline[self.len..self.len + bytes.len()].copy_from_slice(bytes);
            self.len += bytes.len();
        } else {
            self.spill(bytes);
        }
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.push([v]);
    }

    #[inline]
    fn write_u16(&mut self, v: u16) {
        self.push(v.to_le_bytes());
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.push(v.to_le_bytes());
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.push(v.to_le_bytes());
    }

    #[inline]
    fn write_u128(&mut self, v: u128) {
        self.push(v.to_le_bytes());
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }

    signed_writes_as_unsigned!();

    fn finish(&self) -> u64 {
        xxhash_rust::xxh3::xxh3_64(self.bytes())
    }
}

/// A 128-bit fingerprint of a value made mostly of `Shared` parts (the simulator's whole state),
/// without collecting its bytes: see `SumHasher`.
pub fn fingerprint128<T: Hash + ?Sized>(value: &T) -> u128 {
    let mut hasher = SumHasher::default();
    value.hash(&mut hasher);
    hasher.finish128()
}

/// Polynomial hashing over the value's `Hash` writes: one 128-bit term per write, folded as
/// `sum = sum·K + term` modulo 2^128 (so the term at position `i` of `n` is multiplied by
/// `K^(n-1-i)`, an odd number). A `u128` write is taken to be a digest already (it is what a
/// `Shared` part writes: its XXH3-128) and is its own term; any other integer's term is its 64
/// bits mixed to 128 (two independent bijective mixers); a byte string's is its XXH3-128.
///
/// Why this is a strong 128-bit hash: two different values have different write sequences (what
/// `Hash` promises). Modelling XXH3 and the mixers as random functions, each sum is
/// `Σ r(v)·c(v)` over the distinct inputs `v` it writes, with `r(v)` the input's random term and
/// `c(v)` the sum of the powers of `K` at the positions where it is written. Some input's
/// coefficient differs between the two values, so the difference of their sums is a random
/// `r(v)` times a nonzero difference of coefficients: zero with probability 2^-(128-k), where
/// 2^k divides that difference (k is 0 for an input written once by one value only; for two
/// inputs that swap places `d` positions apart, `K ≡ 3 (mod 8)` makes k at most
/// 2 + log2(d)). The fingerprint is the sum with its halves swapped: the explorer's visited
/// table hashes the fingerprint's low half, and the sum's high half is the one with no bits
/// that two values can share for structural reasons (the low k bits of a difference are zero).
/// (A final XXH3 of the sum, which this replaces, cost about 1 % of an exploration.)
#[derive(Default)]
pub struct SumHasher {
    sum: u128,
}

/// The polynomial's base: `≡ 3 (mod 8)`, otherwise arbitrary (π's first 16 hexadecimal digits).
/// Its powers modulo 2^128 are odd 128-bit numbers; a 64-bit base makes each step two machine
/// multiplications instead of three.
const K: u128 = 0x243F_6A88_85A3_08D3;

/// The splitmix64 finalizer (a bijection on `u64` with full avalanche).
#[inline]
fn mix64(mut z: u64) -> u64 {
    z = z.wrapping_add(0x9E37_79B9_7F4A_7C15);
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    z ^ (z >> 31)
}

impl SumHasher {
    #[inline]
    fn term(&mut self, term: u128) {
        self.sum = self.sum.wrapping_mul(K).wrapping_add(term);
    }

    /// A small integer's term: two independent mixes of it (each a bijection, so different
    /// integers have different terms).
    #[inline]
    fn integer(&mut self, v: u64) {
        let lo = mix64(v);
        let hi = mix64(v ^ 0xA409_3822_299F_31D0);
        self.term(u128::from(hi) << 64 | u128::from(lo));
    }

    /// The fingerprint: the sum, halves swapped (see the type's documentation).
    pub fn finish128(&self) -> u128 {
        self.sum.rotate_left(64)
    }
}

impl Hasher for SumHasher {
    fn write(&mut self, bytes: &[u8]) {
        self.term(xxh3_128(bytes));
    }

    #[inline]
    fn write_u8(&mut self, v: u8) {
        self.integer(v.into());
    }

    #[inline]
    fn write_u16(&mut self, v: u16) {
        self.integer(v.into());
    }

    #[inline]
    fn write_u32(&mut self, v: u32) {
        self.integer(v.into());
    }

    #[inline]
    fn write_u64(&mut self, v: u64) {
        self.integer(v);
    }

    /// A digest (see the type's documentation).
    #[inline]
    fn write_u128(&mut self, v: u128) {
        self.term(v);
    }

    #[inline]
    fn write_usize(&mut self, v: usize) {
        self.integer(v as u64);
    }

    signed_writes_as_unsigned!();

    fn finish(&self) -> u64 {
        self.finish128() as u64
    }
}

impl<T> Clone for Shared<T> {
    fn clone(&self) -> Shared<T> {
        Shared(Rc::clone(&self.0))
    }
}

impl<T> Deref for Shared<T> {
    type Target = T;
    fn deref(&self) -> &T {
        &self.0.value
    }
}

impl<T: Clone> DerefMut for Shared<T> {
    /// Copies the value if another state shares it, and forgets the digest (it may change).
    fn deref_mut(&mut self) -> &mut T {
        // Not `Rc::make_mut`: its copy goes through a layout computed at run time (a call per
        // copy), and copies the digest only to forget it. No `Weak` is ever made, so a value
        // not shared (a strong count of 1) is the only case `get_mut` answers.
        if Rc::strong_count(&self.0) != 1 {
            // The copy has no digest yet.
            self.0 = Rc::new(Inner { value: self.0.value.clone(), digest: OnceCell::new() });
            return &mut Rc::get_mut(&mut self.0).expect("a value no other state shares").value;
        }
        let inner = Rc::get_mut(&mut self.0).expect("a value no other state shares");
        inner.digest = OnceCell::new();
        &mut inner.value
    }
}

impl<T> Shared<T> {
    /// The value to write in place when no other state shares it (its digest forgotten), or
    /// `None`: then the caller makes the copy itself (`Shared::new`), and can leave out of it what
    /// the write would remove at once.
    pub fn unshared_mut(&mut self) -> Option<&mut T> {
        let inner = Rc::get_mut(&mut self.0)?;
        inner.digest = OnceCell::new();
        Some(&mut inner.value)
    }
}

impl<T: Clone> Shared<Vec<T>> {
    /// Appends to the list. A copy made for this write leaves room for the new element (a plain
    /// copy is exact-sized and would grow again at once).
    pub fn push(&mut self, value: T) {
        if Rc::get_mut(&mut self.0).is_none() {
            let mut copy = Vec::with_capacity(self.0.value.len() + 1);
            copy.extend_from_slice(&self.0.value);
            *self = Shared::new(copy);
        }
        (**self).push(value);
    }
}

impl<T: Hash> Hash for Shared<T> {
    fn hash<H: Hasher>(&self, state: &mut H) {
        state.write_u128(self.digest());
    }
}

impl<T: PartialEq> PartialEq for Shared<T> {
    fn eq(&self, other: &Shared<T>) -> bool {
        Rc::ptr_eq(&self.0, &other.0) || self.0.value == other.0.value
    }
}

impl<T: Eq> Eq for Shared<T> {}

impl<T: fmt::Debug> fmt::Debug for Shared<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.value.fmt(f)
    }
}

impl<T: Default> Default for Shared<T> {
    fn default() -> Shared<T> {
        Shared::new(T::default())
    }
}

impl<T> From<T> for Shared<T> {
    fn from(value: T) -> Shared<T> {
        Shared::new(value)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn digest_of<T: Hash>(v: &T) -> u128 {
        digest128(v)
    }

    #[test]
    fn a_copy_is_shared_until_written() {
        let a = Shared::new(vec![1, 2, 3]);
        let mut b = a.clone();
        assert!(Rc::ptr_eq(&a.0, &b.0));
        b.push(4);
        assert!(!Rc::ptr_eq(&a.0, &b.0));
        assert_eq!(*a, vec![1, 2, 3]);
        assert_eq!(*b, vec![1, 2, 3, 4]);
    }

    #[test]
    fn pushing_to_a_shared_list_copies_it_once_with_room() {
        let a = Shared::new(vec![1, 2, 3]);
        let before = a.digest();
        let mut b = a.clone();
        b.push(4);
        assert!(!Rc::ptr_eq(&a.0, &b.0));
        assert_eq!((&*a, &*b), (&vec![1, 2, 3], &vec![1, 2, 3, 4]));
        assert!(b.capacity() >= 4);
        assert_eq!(a.digest(), before);
        assert_eq!(b.digest(), Shared::new(vec![1, 2, 3, 4]).digest(), "the push forgot the old digest");
    }

    #[test]
    fn the_digest_follows_the_value_not_its_history() {
        let mut a = Shared::new(vec![1, 2]);
        let before = a.digest();
        a.push(3);
        assert_ne!(a.digest(), before, "a write forgets the cached digest");
        let b = Shared::new(vec![1, 2, 3]);
        assert_eq!(a.digest(), b.digest());
        assert_eq!(digest_of(&a), digest_of(&b));
        a.pop();
        assert_eq!(a.digest(), before);
    }

    #[test]
    fn the_fingerprint_base_is_3_mod_8() {
        assert_eq!(K % 8, 3);
    }

    #[test]
    fn fingerprints_follow_values_and_positions() {
        let a = Shared::new(vec![1, 2]);
        let b = Shared::new(vec![3]);
        let fp = |x: &Shared<Vec<i32>>, y: &Shared<Vec<i32>>, n: u32| fingerprint128(&(x, n, y, "s"));
        let base = fp(&a, &b, 7);
        // Equal values (not shared) give equal fingerprints.
        assert_eq!(base, fp(&Shared::new(vec![1, 2]), &Shared::new(vec![3]), 7));
        // Swapped parts, a changed integer, a changed part: all different.
        let others = [fp(&b, &a, 7), fp(&a, &b, 8), fp(&a, &a, 7), fp(&b, &b, 7), fp(&Shared::new(vec![1]), &b, 7)];
        for (i, other) in others.iter().enumerate() {
            assert_ne!(base, *other, "variant {i}");
        }
        // Strings and lengths are told apart: ("ab", "") vs ("a", "b"), [[1], []] vs [[], [1]].
        assert_ne!(fingerprint128(&("ab", "")), fingerprint128(&("a", "b")));
        let v: (Vec<Vec<u8>>, Vec<Vec<u8>>) = (vec![vec![1], vec![]], vec![vec![], vec![1]]);
        assert_ne!(fingerprint128(&v.0), fingerprint128(&v.1));
    }

    #[test]
    fn equal_values_compare_equal_without_sharing() {
        assert_eq!(Shared::new("x".to_string()), Shared::new("x".to_string()));
        assert_ne!(Shared::new(1), Shared::new(2));
    }
}
