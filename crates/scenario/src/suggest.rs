//! "Did you mean …?": the closest of a few known names to a misspelt one.

/// Longest name, in bytes, worth comparing.
const MAX_NAME: usize = 64;

/// Most candidates compared for one name.
const MAX_CANDIDATES: usize = 500;

/// The candidate closest to `name` by edit distance, if one is close enough to be a likely typo;
/// the first such candidate wins a tie. Only the first [`MAX_CANDIDATES`] candidates count, and
/// names longer than [`MAX_NAME`] bytes get no suggestion, to bound the quadratic work.
pub fn closest<'a>(name: &str, candidates: impl IntoIterator<Item = &'a str>) -> Option<&'a str> {
    if name.len() > MAX_NAME {
        return None;
    }
    let length = name.chars().count();
    let limit = (length / 3).max(1);
    let mut best: Option<(usize, &'a str)> = None;
    for candidate in candidates.into_iter().take(MAX_CANDIDATES) {
        // The distance is at least the difference in length.
        if candidate.len() > MAX_NAME || candidate.chars().count().abs_diff(length) > limit {
            continue;
        }
        let distance = edit_distance(name, candidate);
        if distance > 0 && distance <= limit && best.is_none_or(|(d, _)| distance < d) {
            best = Some((distance, candidate));
        }
    }
    best.map(|(_, candidate)| candidate)
}

/// Edit distance over characters, counting a swap of two neighbours as one edit (optimal
/// string alignment), so `nmae` is one edit from `name`.
fn edit_distance(a: &str, b: &str) -> usize {
    let a: Vec<char> = a.chars().collect();
    let b: Vec<char> = b.chars().collect();
    // Rows i-2, i-1 and i of the table whose cell j is the distance between a[..i] and b[..j].
    let mut before = vec![0; b.len() + 1];
    let mut previous: Vec<usize> = (0..=b.len()).collect();
    let mut current = vec![0; b.len() + 1];
    for i in 1..=a.len() {
        current[0] = i;
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (previous[j] + 1).min(current[j - 1] + 1).min(previous[j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(before[j - 2] + 1);
            }
            current[j] = best;
        }
        std::mem::swap(&mut before, &mut previous);
        std::mem::swap(&mut previous, &mut current);
    }
    previous[b.len()]
}

#[cfg(test)]
mod tests;
