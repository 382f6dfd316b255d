//! The rulebook's numbers: the movement cards, the bid cards and the lowest pace, and
//! the card a missed order plays.

/// The movement cards every runner holds (and the robots' shared deck).
pub const MOVEMENT_CARDS: [u8; 4] = [8, 9, 10, 11];
/// Bid cards run from 1 to this.
pub const TOP_BID: u8 = 8;
/// The lowest pace level.
pub const BASE_PACE: u8 = 5;

/// The card a missed order plays: the one whose loss leaves the widest spread of cards
/// behind (keeping the most options), the lower on a tie.
pub fn options_card(hand: &[u8]) -> u8 {
    let spread = |card: u8| {
        let rest: Vec<u8> = hand.iter().copied().filter(|&c| c != card).collect();
        let lo = rest.iter().min().copied().unwrap_or(0);
        let hi = rest.iter().max().copied().unwrap_or(0);
        hi - lo
    };
    let mut best: Option<(u8, u8)> = None;
    for &c in hand {
        let s = spread(c);
        if best.is_none_or(|(bs, bc)| s > bs || (s == bs && c < bc)) {
            best = Some((s, c));
        }
    }
    best.map(|(_, c)| c).unwrap_or(MOVEMENT_CARDS[0])
}
