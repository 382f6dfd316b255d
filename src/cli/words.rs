//! The terminal's words for the Discord commands and timestamps a post names. The referee
//! and `render` word their text for Discord; `play` prints it where no slash command can
//! be typed, so each is turned into what the player types here.

use std::path::Path;

use crate::vocab::CampaignId;

/// The words of one terminal race.
#[derive(Clone, Debug)]
pub struct Words {
    /// Each Discord phrase and what the terminal says instead, longest first so a
    /// phrase is never cut by a shorter one.
    table: Vec<(&'static str, String)>,
}

impl Words {
    /// The words of race `race`, stored in `db`.
    pub fn new(race: CampaignId, db: &Path) -> Words {
        let verify = format!(
            "`photofinish verify {} --database {}`",
            race.0,
            db.display()
        );
        let table = vec![
            ("/race pause resume:True", "`resume`".to_string()),
            // A date such as a Discord timestamp is read, but is nothing to type here.
            (", in 2h or <t:1796140800>", " or in 2h".to_string()),
            ("`/race back`", "`back`".to_string()),
            (
                "ask the host to /race replace it back to you",
                "`autopilot ask` gives it back to you".to_string(),
            ),
            (
                "as host you can `/race replace` the seat",
                "`back` takes the seat back".to_string(),
            ),
            ("/race verify", verify),
            ("/race history", "`history N`".to_string()),
            ("/race status", "`status`".to_string()),
            ("/race order", "an order typed here".to_string()),
            ("/race help", "`help`".to_string()),
            ("/race new", "`photofinish play GAME`".to_string()),
        ];
        Words { table }
    }

    /// `text` in the terminal's words.
    pub fn terminal(&self, text: &str) -> String {
        let mut text = text.to_string();
        for (discord, terminal) in &self.table {
            if text.contains(discord) {
                text = text.replace(discord, terminal);
            }
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn words() -> Words {
        Words::new(CampaignId(3), Path::new("t.db"))
    }

    #[test]
    fn the_terminal_names_its_own_commands() {
        let w = words();
        assert_eq!(
            w.terminal(
                "the seed is revealed at the end, so anyone can replay the race with /race verify."
            ),
            "the seed is revealed at the end, so anyone can replay the race with \
             `photofinish verify 3 --database t.db`."
        );
        assert_eq!(
            w.terminal("Replay the race with /race verify."),
            "Replay the race with `photofinish verify 3 --database t.db`."
        );
        assert_eq!(
            w.terminal("at once. `/race back` ends it."),
            "at once. `back` ends it."
        );
        assert_eq!(
            w.terminal("The host resumes it with /race pause resume:True."),
            "The host resumes it with `resume`."
        );
        assert_eq!(
            w.terminal("write one such as 2026-12-01 18:00, tomorrow 18:00, fri 09:00, in 2h or <t:1796140800>"),
            "write one such as 2026-12-01 18:00, tomorrow 18:00, fri 09:00 or in 2h"
        );
    }

    #[test]
    fn no_slash_command_or_timestamp_is_left() {
        let w = words();
        for text in [
            "The race is over; the final result is posted below. /race history shows any turn, and /race verify checks the dice.",
            "Orders go by DM (or /race order); each turn's result is posted here, and /race status shows the standings.",
            "there is no race here; start one with /race new",
            "your seat is played by a bot now; ask the host to /race replace it back to you",
            "{user}: Ann has now booked more than this race's 14 days away (away-cap=14); as host you can `/race replace` the seat.",
            "the games' presets; `/race help`",
        ] {
            let said = w.terminal(text);
            assert!(!said.contains("/race"), "{said}");
            assert!(!said.contains("<t:"), "{said}");
        }
    }
}
