//! A seat's time bank in words (`clock=`), for the status message, `/race
//! status` and the terminal; kept apart from `post.rs`, which is at its size.

use super::message::Style;
use crate::referee::announce::BankShown;
use crate::referee::when::format_duration;

/// ` · bank 2d11h, ends <when>` while it runs, ` · bank 2d11h` once stopped, or that it
/// ran out. Shown to the minute, and to the second in the last hour.
pub fn bank_text(b: &BankShown, style: &Style) -> String {
    if b.ran_out {
        return " · bank ran out: the default order plays".into();
    }
    let secs = u64::try_from(b.left_ms.max(0) / 1000).unwrap_or(0);
    // To the minute, and to the second in the last hour.
    let shown = if secs < 3600 { secs } else { secs - secs % 60 };
    let left = format_duration(shown);
    match b.due {
        Some(due) => format!(" · bank {left}, ends {}", style.when(due)),
        None => format!(" · bank {left}"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::referee::when::parse_zone;

    #[test]
    fn banks_in_words() {
        let running = BankShown {
            left_ms: 2 * 86_400_000 + 11 * 3_600_000 + 59_999,
            due: Some(1_796_140_800_000),
            ran_out: false,
        };
        assert_eq!(
            bank_text(&running, &Style::discord()),
            " · bank 2d11h, ends <t:1796140800:F> (<t:1796140800:R>)"
        );
        let london = Style::plain(parse_zone("Europe/London").unwrap());
        assert_eq!(
            bank_text(&running, &london),
            " · bank 2d11h, ends Tue 01 Dec 16:00:00 Europe/London"
        );
        let stopped = BankShown {
            due: None,
            ..running
        };
        assert_eq!(bank_text(&stopped, &london), " · bank 2d11h");
        let last = BankShown {
            left_ms: 599_999,
            due: None,
            ran_out: false,
        };
        assert_eq!(bank_text(&last, &london), " · bank 9m59s");
        let out = BankShown {
            left_ms: 0,
            due: None,
            ran_out: true,
        };
        assert_eq!(
            bank_text(&out, &london),
            " · bank ran out: the default order plays"
        );
    }
}
