//! The rulesets as data: decks, targets, scoring tables and the few special rules that
//! tell 1000 miles (as the playroom plays it), the published Mille Bornes rules and
//! 1000 Yards apart; and the race options that choose between them.

use serde::{Deserialize, Serialize};

use super::cards::Card;
use crate::engine::{DecisionWindow, OptionDoc, OptionsError};

/// Which game's rules, as data.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum Ruleset {
    /// 1000 miles as docs/rules/1000-miles.md has it (an online playroom's rules).
    #[default]
    Playroom,
    /// The published Mille Bornes rules: trip 400, safe trip, 700 with an extension for
    /// 2-3 players, 101 cards for 2-3 players.
    Published,
    /// 1000 Yards, the family adaptation.
    Yards,
}

/// Points for each scoring line; 0 where a ruleset does not score it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Scoring {
    pub per_safety: i64,
    pub all_safeties: i64,
    /// The all-four bonus goes only to the team that completed the trip.
    pub all_safeties_needs_trip: bool,
    pub dirty_trick: i64,
    pub trip: i64,
    /// Completing the trip after the draw pile ran out (coronation, delayed action).
    pub delayed: i64,
    /// Completing the trip without a 200.
    pub safe_trip: i64,
    /// Completing an extended trip, for the team that called the extension.
    pub extension: i64,
    /// Completing the trip while no other team has a mile (hood, shut-out).
    pub shutout: i64,
}

/// One ruleset's data.
#[derive(Debug)]
pub struct RuleData {
    pub title: &'static str,
    /// "miles" or "yards".
    pub unit: &'static str,
    /// Uses 1000 Yards' card names.
    pub yards_names: bool,
    pub deck: &'static [(Card, u8)],
    /// Removed for 2 and 3 players.
    pub small_table_removals: &'static [Card],
    /// Table sizes the ruleset knows.
    pub seat_counts: &'static [usize],
    /// Cards dealt to each player.
    pub deal: usize,
    /// 1000 miles draws to 7 before playing; 1000 Yards plays, then draws up to 7.
    pub draw_before_play: bool,
    /// The green light also fixes a red light (1000 Yards has the crosswalk for traffic).
    pub go_fixes_stop: bool,
    /// A speed limit may only be put on a rolling car (1000 Yards' restriction).
    pub limit_needs_rolling: bool,
    /// The published extension: at exactly 700 (2-3 players) the player may go on to 1000.
    pub extension_offered: bool,
    pub scoring: Scoring,
    /// Scoring line names: coronation or delayed action, hood or shut-out, dirty trick or counter.
    pub delayed_name: &'static str,
    pub shutout_name: &'static str,
    pub dirty_trick_name: &'static str,
    /// The plural, for the score line.
    pub dirty_tricks_name: &'static str,
    /// What the four cards are called: immunity (1000 miles) or protection (1000 Yards).
    pub safety_word: &'static str,
    pub safeties_word: &'static str,
}

const MILES_DECK: &[(Card, u8)] = &[
    (Card::D25, 10),
    (Card::D50, 10),
    (Card::D75, 10),
    (Card::D100, 12),
    (Card::D200, 4),
    (Card::Stop, 5),
    (Card::Limit, 4),
    (Card::OutOfGas, 3),
    (Card::Flat, 3),
    (Card::Accident, 3),
    (Card::Go, 14),
    (Card::EndOfLimit, 6),
    (Card::Gas, 6),
    (Card::Spare, 6),
    (Card::Repairs, 6),
    (Card::RightOfWay, 1),
    (Card::ExtraTank, 1),
    (Card::PunctureProof, 1),
    (Card::DrivingAce, 1),
];

/// The mapping: the Mille Bornes deck plus six crosswalks for traffic.
const YARDS_DECK: &[(Card, u8)] = &[
    (Card::D25, 10),
    (Card::D50, 10),
    (Card::D75, 10),
    (Card::D100, 12),
    (Card::D200, 4),
    (Card::Stop, 5),
    (Card::Limit, 4),
    (Card::OutOfGas, 3),
    (Card::Flat, 3),
    (Card::Accident, 3),
    (Card::Go, 14),
    (Card::StopFix, 6),
    (Card::EndOfLimit, 6),
    (Card::Gas, 6),
    (Card::Spare, 6),
    (Card::Repairs, 6),
    (Card::RightOfWay, 1),
    (Card::ExtraTank, 1),
    (Card::PunctureProof, 1),
    (Card::DrivingAce, 1),
];

/// The counterflow variant's cards (our ruling on their number).
pub const COUNTERFLOW_CARDS: &[(Card, u8)] = &[(Card::Counterflow, 3), (Card::EndOfCounterflow, 4)];

const ONE_EACH_HAZARD: &[Card] = &[
    Card::Stop,
    Card::Accident,
    Card::OutOfGas,
    Card::Flat,
    Card::Limit,
];

const PLAYROOM: RuleData = RuleData {
    title: "1000 miles",
    unit: "miles",
    yards_names: false,
    deck: MILES_DECK,
    small_table_removals: &[],
    seat_counts: &[2, 3, 4, 6, 8, 9],
    deal: 6,
    draw_before_play: true,
    go_fixes_stop: true,
    limit_needs_rolling: false,
    extension_offered: false,
    scoring: Scoring {
        per_safety: 100,
        all_safeties: 300,
        all_safeties_needs_trip: true,
        dirty_trick: 300,
        trip: 300,
        delayed: 300,
        safe_trip: 0,
        extension: 0,
        shutout: 500,
    },
    delayed_name: "coronation",
    shutout_name: "hood",
    dirty_trick_name: "dirty trick",
    dirty_tricks_name: "dirty tricks",
    safety_word: "immunity",
    safeties_word: "immunities",
};

const PUBLISHED: RuleData = RuleData {
    title: "1000 miles (published Mille Bornes rules)",
    unit: "miles",
    yards_names: false,
    deck: MILES_DECK,
    small_table_removals: ONE_EACH_HAZARD,
    seat_counts: &[2, 3, 4, 6],
    deal: 6,
    draw_before_play: true,
    go_fixes_stop: true,
    limit_needs_rolling: false,
    extension_offered: true,
    scoring: Scoring {
        per_safety: 100,
        all_safeties: 300,
        all_safeties_needs_trip: false,
        dirty_trick: 300,
        trip: 400,
        delayed: 300,
        safe_trip: 300,
        extension: 200,
        shutout: 500,
    },
    delayed_name: "delayed action",
    shutout_name: "shut-out",
    dirty_trick_name: "coup fourré",
    dirty_tricks_name: "coups fourrés",
    safety_word: "immunity",
    safeties_word: "immunities",
};

const YARDS: RuleData = RuleData {
    title: "1000 Yards",
    unit: "yards",
    yards_names: true,
    deck: YARDS_DECK,
    small_table_removals: ONE_EACH_HAZARD,
    seat_counts: &[2, 3, 4, 6],
    deal: 7,
    draw_before_play: false,
    go_fixes_stop: false,
    limit_needs_rolling: true,
    extension_offered: false,
    scoring: Scoring {
        per_safety: 0,
        all_safeties: 0,
        all_safeties_needs_trip: true,
        dirty_trick: 200,
        trip: 0,
        delayed: 0,
        safe_trip: 0,
        extension: 0,
        shutout: 0,
    },
    delayed_name: "delayed finish",
    shutout_name: "shut-out",
    dirty_trick_name: "counter",
    dirty_tricks_name: "counters",
    safety_word: "protection",
    safeties_word: "protections",
};

impl Ruleset {
    pub fn data(self) -> &'static RuleData {
        match self {
            Ruleset::Playroom => &PLAYROOM,
            Ruleset::Published => &PUBLISHED,
            Ruleset::Yards => &YARDS,
        }
    }

    /// The trip for a table, before any option: 1000 Yards is 1000 only for four players
    /// (two teams) and 700 otherwise; the published rules are 700 for 2-3 players.
    pub fn default_target(self, players: usize) -> u32 {
        match self {
            Ruleset::Playroom => 1000,
            Ruleset::Published if players <= 3 => 700,
            Ruleset::Published => 1000,
            Ruleset::Yards if players == 4 => 1000,
            Ruleset::Yards => 700,
        }
    }

    /// The standard number of teams for a table of `players`.
    pub fn default_teams(players: usize) -> usize {
        match players {
            4 => 2,
            6 => 3,
            8 => 4,
            9 => 3,
            n => n,
        }
    }
}

/// A player's standing choice for dirty tricks (counters).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum CounterPref {
    /// Played the instant the attack lands: nothing waits, so nothing leaks.
    #[default]
    Auto,
    /// A window opens for the player to answer `counter` or `decline`.
    Ask,
}

impl CounterPref {
    pub fn name(self) -> &'static str {
        match self {
            CounterPref::Auto => "auto",
            CounterPref::Ask => "ask",
        }
    }

    /// Reads `dirty-trick ask`, `counter auto`, `ask`...
    pub fn parse(text: &str) -> Option<CounterPref> {
        let t = super::cards::normalise(text);
        let t = [
            "dirty trick",
            "dirty tricks",
            "counter",
            "counters",
            "coup fourre",
        ]
        .iter()
        .find_map(|p| t.strip_prefix(p))
        .unwrap_or(&t)
        .trim()
        .trim_start_matches(['=', ':'])
        .trim();
        match t {
            "auto" | "automatic" | "on" => Some(CounterPref::Auto),
            "ask" | "ask me" | "manual" => Some(CounterPref::Ask),
            _ => None,
        }
    }
}

/// Race options. The game kinds' presets choose the ruleset and the game's length.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Options {
    pub ruleset: Ruleset,
    /// The game ends after the round in which a team reaches this total (0: no target).
    pub target_score: u32,
    /// The game ends after this many rounds (0: no limit).
    pub rounds: u32,
    /// The trip's length (0: the ruleset's for the table).
    pub target_distance: u32,
    /// Number of teams (0: the standard for the table).
    pub teams: u32,
    /// Variant: a car may suffer several problems at once.
    pub attacks_cumulate: bool,
    /// Variant: how many times a round the junked cards are shuffled back into an empty
    /// draw pile (0: never, the standard rule).
    pub reshuffles: u32,
    /// Variant: the counterflow card and its end card.
    pub counterflow: bool,
    /// Where the ruleset offers it (published, 2-3 players), the extension to 1000.
    pub extension: bool,
    /// How long a player set to `dirty-trick ask` has to answer an attack: `turn` (the
    /// race's turn length, the default) or a shorter number of seconds.
    pub counter_timeout: DecisionWindow,
    /// New seats start with the conservative standing plays (`standing default`). Off
    /// by default: standing plays are the player's own rules, made by the player.
    #[serde(default)]
    pub standing_plays: bool,
}

impl Default for Options {
    fn default() -> Self {
        Options {
            ruleset: Ruleset::Playroom,
            target_score: 5000,
            rounds: 0,
            target_distance: 0,
            teams: 0,
            attacks_cumulate: false,
            reshuffles: 0,
            counterflow: false,
            extension: true,
            counter_timeout: DecisionWindow::Turn,
            standing_plays: false,
        }
    }
}

pub const OPTION_DOCS: &[OptionDoc] = &[
    OptionDoc {
        key: "ruleset",
        help: "playroom (1000 miles as our rulebook has it), published (Mille Bornes) or yards (1000 Yards)",
    },
    OptionDoc {
        key: "target-score",
        help: "the game ends after the round in which a team reaches this score (5000; 0: none)",
    },
    OptionDoc {
        key: "rounds",
        help: "the game ends after this many rounds (0: no limit; 1000 Yards: 1)",
    },
    OptionDoc {
        key: "target-distance",
        help: "the trip's length (0: the ruleset's, 1000 or 700 by table size)",
    },
    OptionDoc {
        key: "teams",
        help: "number of teams, seated alternately (0: 2 teams for 4, 3 for 6, 4 for 8, 3 for 9)",
    },
    OptionDoc {
        key: "attacks-cumulate",
        help: "variant: attacks may pile up on a car that is already stopped (no)",
    },
    OptionDoc {
        key: "reshuffles",
        help: "variant: times a round the junk pile is reshuffled into an empty draw pile (0)",
    },
    OptionDoc {
        key: "counterflow",
        help: "variant: add 3 counterflow and 4 end of counterflow cards (no)",
    },
    OptionDoc {
        key: "extension",
        help: "published rules, 2-3 players: at exactly 700 the player may extend to 1000 (yes)",
    },
    OptionDoc {
        key: "counter-timeout",
        help: "how long a player set to `dirty-trick ask` has to answer an attack: turn (the race's turn length), or fewer seconds, 10 to 86400 (turn)",
    },
    OptionDoc {
        key: "standing-plays",
        help: "yes: new seats start with the standing plays finish, remedy, attack, distance, keep-safety, junk (no: none until a player sets theirs)",
    },
];

impl Options {
    pub fn rules(&self) -> &'static RuleData {
        self.ruleset.data()
    }

    pub fn check(&self) -> Result<(), OptionsError> {
        let bad = |m: &str| Err(OptionsError::Invalid(m.to_string()));
        if self.target_score == 0 && self.rounds == 0 {
            return bad("the game needs a target-score or a number of rounds (both are 0)");
        }
        if self.rounds > 100 {
            return bad("rounds must be at most 100");
        }
        if self.target_score > 100_000 {
            return bad("target-score must be at most 100000");
        }
        if self.target_distance != 0
            && (self.target_distance < 100
                || self.target_distance > 5000
                || !self.target_distance.is_multiple_of(25))
        {
            return bad(
                "target-distance must be 0 (standard) or a multiple of 25 from 100 to 5000",
            );
        }
        if self.teams > 9 {
            return bad("teams must be at most 9");
        }
        if self.reshuffles > 10 {
            return bad("reshuffles must be at most 10");
        }
        if let Some(secs) = self.counter_timeout.seconds()
            && !(10..=86_400).contains(&secs)
        {
            return bad("counter-timeout must be turn, or from 10 to 86400 seconds");
        }
        Ok(())
    }

    /// The number of teams for `players`, or why the table does not work.
    pub fn team_count(&self, players: usize) -> Result<usize, OptionsError> {
        let rules = self.rules();
        if !rules.seat_counts.contains(&players) {
            let counts: Vec<String> = rules
                .seat_counts
                .iter()
                .map(std::string::ToString::to_string)
                .collect();
            return Err(OptionsError::Invalid(format!(
                "{} is played by {} players, not {players}",
                rules.title,
                counts.join(", ")
            )));
        }
        let teams = if self.teams == 0 {
            Ruleset::default_teams(players)
        } else {
            self.teams as usize
        };
        if teams < 2 || !players.is_multiple_of(teams) {
            return Err(OptionsError::Invalid(format!(
                "{players} players cannot be split into {teams} equal teams"
            )));
        }
        Ok(teams)
    }

    pub fn target_for(&self, players: usize) -> u32 {
        if self.target_distance == 0 {
            self.ruleset.default_target(players)
        } else {
            self.target_distance
        }
    }

    /// The full deck for a table of `players`, in a fixed order.
    pub fn deck(&self, players: usize) -> Vec<Card> {
        let rules = self.rules();
        let mut deck = Vec::new();
        let extra: &[(Card, u8)] = if self.counterflow {
            COUNTERFLOW_CARDS
        } else {
            &[]
        };
        for &(card, n) in rules.deck.iter().chain(extra) {
            let removed = usize::from(players <= 3 && rules.small_table_removals.contains(&card));
            for _ in removed..usize::from(n) {
                deck.push(card);
            }
        }
        deck
    }
}

pub(super) fn choice_error(rules: &RuleData) -> String {
    if rules.yards_names {
        "the choice is `counter auto` or `counter ask`".into()
    } else {
        "the choice is `dirty-trick auto` or `dirty-trick ask`".into()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn opts(ruleset: Ruleset) -> Options {
        Options {
            ruleset,
            ..Options::default()
        }
    }

    #[test]
    fn deck_sizes() {
        assert_eq!(opts(Ruleset::Playroom).deck(2).len(), 106);
        assert_eq!(opts(Ruleset::Playroom).deck(4).len(), 106);
        assert_eq!(opts(Ruleset::Published).deck(3).len(), 101);
        assert_eq!(opts(Ruleset::Published).deck(4).len(), 106);
        assert_eq!(opts(Ruleset::Yards).deck(4).len(), 112);
        assert_eq!(opts(Ruleset::Yards).deck(2).len(), 107);
        let cf = Options {
            counterflow: true,
            ..Options::default()
        };
        assert_eq!(cf.deck(2).len(), 113);
    }

    #[test]
    fn targets_and_teams() {
        assert_eq!(opts(Ruleset::Playroom).target_for(2), 1000);
        assert_eq!(opts(Ruleset::Published).target_for(3), 700);
        assert_eq!(opts(Ruleset::Published).target_for(4), 1000);
        assert_eq!(opts(Ruleset::Yards).target_for(4), 1000);
        assert_eq!(opts(Ruleset::Yards).target_for(6), 700);
        assert_eq!(opts(Ruleset::Yards).target_for(2), 700);
        assert_eq!(opts(Ruleset::Playroom).team_count(6).unwrap(), 3);
        assert_eq!(opts(Ruleset::Playroom).team_count(9).unwrap(), 3);
        assert!(opts(Ruleset::Playroom).team_count(5).is_err());
        assert!(opts(Ruleset::Yards).team_count(8).is_err());
        let two_of_three = Options {
            teams: 2,
            ..Options::default()
        };
        assert_eq!(two_of_three.team_count(6).unwrap(), 2);
        assert!(two_of_three.team_count(9).is_err());
    }

    #[test]
    fn preferences_read() {
        assert_eq!(
            CounterPref::parse("dirty-trick ask"),
            Some(CounterPref::Ask)
        );
        assert_eq!(
            CounterPref::parse("Dirty trick: AUTO"),
            Some(CounterPref::Auto)
        );
        assert_eq!(CounterPref::parse("ask"), Some(CounterPref::Ask));
        assert_eq!(CounterPref::parse("dirty-trick sometimes"), None);
    }
}
