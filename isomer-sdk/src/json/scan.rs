//! Where plain JSON string text ends: the one byte scan behind the reader,
//! which stops at a string's closing quote, an escape or a control
//! character, and the writer, which escapes those bytes (and, for one-line
//! text such as `compact_json`, U+2028 and U+2029).

/// The index of the first byte at or after `at` that is a quote (`"`), a
/// backslash or a C0 control (below `0x20`), also, with `separators`, an
/// `E2` (the lead byte of U+2028 and U+2029, and of other characters the
/// caller then checks with [`is_separator_at`]); `bytes.len()` when there
/// is none. Every byte it stops at is ASCII or a lead byte, so it is a char
/// boundary of UTF-8 text. `at` is at most `bytes.len()`.
///
/// Reads eight bytes per step as one little-endian word (the last, short
/// word padded with `A`, which it never stops at), so plain text costs a few
/// instructions per word. A byte equal to `b` is a zero byte of
/// `word ^ (b * ONES)`, and `(v - ONES) & !v & HIGHS` marks the top bit of
/// the lowest zero byte of `v` exactly; likewise
/// `(word - 0x20 * ONES) & !word & HIGHS` marks the lowest byte below
/// `0x20`. Marks above the lowest may be wrong (a borrow carries up), so
/// only the lowest mark is read.
#[inline]
pub(crate) fn plain_end(bytes: &[u8], mut at: usize, separators: bool) -> usize {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    debug_assert!(at <= bytes.len(), "the scan starts inside the text");
    let zero_byte = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let marks = |word: [u8; 8]| {
        let word = u64::from_le_bytes(word);
        let mut marks = (word.wrapping_sub(0x20 * ONES) & !word & HIGHS)
            | zero_byte(word ^ (u64::from(b'"') * ONES))
            | zero_byte(word ^ (u64::from(b'\\') * ONES));
        if separators {
            marks |= zero_byte(word ^ (0xE2 * ONES));
        }
        marks
    };
    while let Some(chunk) = bytes.get(at..at + 8) {
        let mut word = [0; 8];
        word.copy_from_slice(chunk);
        let found = marks(word);
        if found != 0 {
            return at + (found.trailing_zeros() / 8) as usize;
        }
        at += 8;
    }
    // The last, short word, padded with `A`s: without a copy of a
    // variable length (a call to `memcpy` per string), either the text's
    // last eight bytes shifted down past the bytes already read, or, in a
    // text shorter than a word, its bytes put in one by one.
    const PADDING: u64 = u64::from_le_bytes([b'A'; 8]);
    let rest = &bytes[at..];
    if rest.is_empty() {
        return at;
    }
    let filled = 8 * rest.len();
    let word = match bytes.last_chunk::<8>() {
        Some(last) => (u64::from_le_bytes(*last) >> (64 - filled)) | (PADDING << filled),
        None => rest
            .iter()
            .rev()
            .fold(PADDING, |word, &byte| (word << 8) | u64::from(byte)),
    };
    match marks(word.to_le_bytes()) {
        0 => bytes.len(),
        found => at + (found.trailing_zeros() / 8) as usize,
    }
}

/// True when U+2028 (LINE SEPARATOR) or U+2029 (PARAGRAPH SEPARATOR), the
/// line terminators outside ASCII, starts at byte `at`: UTF-8 `E2 80 A8`
/// or `E2 80 A9`.
pub(crate) fn is_separator_at(bytes: &[u8], at: usize) -> bool {
    matches!(bytes.get(at..at + 3), Some([0xE2, 0x80, 0xA8 | 0xA9]))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stops_at_the_first_special_byte_of_any_word_position() {
        for offset in 0..20 {
            for special in [b'"', b'\\', 0x00, 0x1F, 0xE2] {
                let mut text = vec![b'a'; 20];
                text[offset] = special;
                // A later special byte never hides the first one.
                text[19] = b'"';
                let expected = if special == 0xE2 { 19 } else { offset };
                assert_eq!(
                    plain_end(&text, 0, false),
                    expected,
                    "{special:#x} at {offset}"
                );
                assert_eq!(
                    plain_end(&text, 0, true),
                    offset,
                    "{special:#x} at {offset}"
                );
            }
        }
        // Bytes next to the special ones are plain.
        let plain = b" !#[]^\x7f\x80\xe1\xe3\xff";
        assert_eq!(plain_end(plain, 0, true), plain.len());
        assert_eq!(plain_end(b"ab\"cd\"", 3, false), 5);
        assert_eq!(plain_end(b"", 0, true), 0);
    }

    #[test]
    fn the_last_short_word_reads_only_the_bytes_from_at() {
        // Texts shorter than a word and the tails of longer ones: a special
        // byte just before `at` is never found, the first one at or after
        // it always is.
        for len in 1..20 {
            for at in 0..len {
                let mut text = vec![b'a'; len];
                if at > 0 {
                    text[at - 1] = b'"';
                }
                assert_eq!(plain_end(&text, at, false), len, "{len} bytes from {at}");
                for special in at..len {
                    let mut text = text.clone();
                    text[special] = b'\\';
                    assert_eq!(
                        plain_end(&text, at, false),
                        special,
                        "{len} bytes from {at}, special at {special}"
                    );
                }
            }
        }
    }

    #[test]
    fn separators_are_e2_80_a8_and_a9() {
        let text = "a\u{2028}\u{2029}\u{2027}\u{202A}€".as_bytes();
        let found: Vec<usize> = (0..text.len())
            .filter(|&at| is_separator_at(text, at))
            .collect();
        assert_eq!(found, [1, 4]);
        assert!(!is_separator_at(&text[..3], 1));
    }
}
