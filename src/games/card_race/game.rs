//! The card race behind the engine's contracts: the rules ([`Game`]: who is pending, the
//! prompt, applying the orders, resampling), the bots ([`Bots`]), preferences and standing
//! plays ([`Preferences`]) and its words ([`Presentation`]). Reading orders is in `reading`, checking them in
//! `legality`, the views in `views` and the narration in `narrate`.

use super::bot;
use super::decide::Decision;
use super::legality::IllegalOrder;
use super::narrate::capitalise;
use super::reading::SyntaxError;
use super::rules::CounterPref;
use super::rules::choice_error;
use super::rules::{OPTION_DOCS, Options};
use super::standing::{self, StandingPlays, StandingText};
use super::state::{CardRace, Event, Order, Phase};
use super::views::{PrivateView, PublicView};
use crate::engine::{
    AskTargets, Bots, Choice, Game, GameRng, Mode, Narration, OptionDoc, OptionsError, Outcome,
    Pending, PreferenceError, Preferences, Presentation, Prompt, Seat, SeatSetup, Seed, SetupError,
    StateError, Submitted,
};

/// `/race help` for 1000 miles.
pub const MILES_SUMMARY: &str = "1000 miles: reach the trip (1000) exactly. On your turn draw \
    to 7 cards, then play one or junk one. Distance cards need a green light; attacks (red \
    light, speed limit, out of gas, flat tire, accident) stop a rolling opponent until they play \
    the remedy (and a green light after gas, spare or repairs). Immunities protect for the round \
    and give another play; played out of turn against the matching attack they are a dirty \
    trick (+300). At most two 200s. The round ends at the trip or when a player has no card; \
    games run to 5000 points.";

/// `/race help` for 1000 Yards, in its rulebook's words.
pub const YARDS_SUMMARY: &str = "1000 Yards: reach exactly 1000 yards (700 with 2, 3 or 6 \
    players); you can't go past it. You need a go in play to play race cards. On your turn play \
    one card (or junk one), then draw back to 7. Trouble cards (traffic, flat tire, accident, \
    hungry) stop an opponent until they play the fix (crosswalk, pump, first aid, snack) and \
    then a go; a restriction blocks the 75, 100 and 200 until an end of restriction. \
    Protections (crossing guard, new tire, training wheels, meal) are a free action: they \
    protect you for the rest of the game. Played at once against the matching trouble, a \
    protection is a counter (+200), and you take the next turn. At most two 200s. The score is \
    your yards plus your counters; the most points wins.";

/// The seat choice, in each game's words.
pub const MILES_SEAT_CHOICE: &str = "dirty-trick auto (the default) or dirty-trick ask";
pub const YARDS_SEAT_CHOICE: &str = "counter auto (the default) or counter ask";

pub const MILES_PREFERENCE_HELP: &str = "`dirty-trick auto` (default): your immunity is played \
    the instant a matching attack lands. `dirty-trick ask`: you get a button and a short window \
    to answer; your delay can reveal your hand. Standing plays (on `auto`, a turn they decide \
    is played for you; the first that applies plays): `standing finish, remedy, attack, \
    distance, keep-safety, junk` (the default). Rules: `finish` (complete the trip exactly), \
    `remedy` (when stopped, the remedy, then the green light), `attack` (the opposing team \
    furthest on), `distance` (the largest that fits), `safety` (play an immunity at once), \
    `keep-safety` (keep immunities for a dirty trick; junk instead), `junk` (with nothing to \
    play, a useless card, else a duplicate). Two leaders level, or a turn no rule covers, is \
    asked. `standing` shows yours; `standing none` asks every turn.";
pub const YARDS_PREFERENCE_HELP: &str = "`counter auto` (default): your protection is played \
    the instant a matching trouble lands. `counter ask`: you get a button and a short window \
    to answer; your delay can reveal your hand. Standing plays (on `auto`, a turn they decide \
    is played for you; the first that applies plays): `standing finish, remedy, attack, \
    distance, keep-safety, junk` (the default). Rules: `finish` (reach the goal exactly), \
    `remedy` (when stopped, the fix, then a go), `attack` (the opposing team furthest on), \
    `distance` (the largest race card that fits), `safety` (play a protection at once), \
    `keep-safety` (keep protections for a counter; junk instead), `junk` (with nothing to \
    play, a useless card, else a duplicate). Two leaders level, or a turn no rule covers, is \
    asked. `standing` shows yours; `standing none` asks every turn.";

fn normalise_help(text: &str) -> bool {
    super::cards::normalise(text).ends_with("help")
}

impl CardRace {
    /// Sets or shows a seat's standing plays (`standing ...`).
    fn set_standing(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        let yards = self.rules().yards_names;
        let n = self.players();
        let parsed =
            StandingPlays::parse(text).map_err(|e| PreferenceError::Invalid(e.to_string()))?;
        if seat.index() >= n {
            return Err(PreferenceError::Invalid(
                "you have no seat in this game".into(),
            ));
        }
        let plays = match parsed {
            StandingText::Show => self.standing(seat),
            StandingText::Set(p) => {
                self.standing.set(seat.index(), p.clone());
                p
            }
        };
        if plays.rules().is_empty() {
            return Ok(
                "Standing plays: none. On `auto` you are asked every turn that is not \
                forced or obvious. `standing help` lists the rules."
                    .into(),
            );
        }
        let lines: Vec<String> = plays
            .rules()
            .iter()
            .enumerate()
            .map(|(i, r)| format!("{}. `{}`: {}", i + 1, r.word(), r.explain(yards)))
            .collect();
        let help = if normalise_help(text) {
            format!("\n{}", standing::help(yards))
        } else {
            String::new()
        };
        Ok(format!(
            "Standing plays (`{}`), tried in this order on your turn when you are on `auto`; \
             the first that applies plays for you, and anything else is asked:\n{}{help}",
            plays.text(),
            lines.join("\n")
        ))
    }

    /// How to type the order the seat is asked for now, in one line.
    fn order_hint(&self, seat: Seat) -> String {
        let r = self.rules();
        match self.phase.as_ref() {
            Phase::Window(w) if w.victims.contains(&seat) => {
                let card = if r.yards_names {
                    "protection"
                } else {
                    "immunity"
                };
                format!("Type `counter` (or the {card}'s name) or `decline`.")
            }
            Phase::Extension { .. } => "Type `extend` or `finish`.".into(),
            _ => format!(
                "Type `play 100`, `junk 25`, or {} with its target: `{} @Bob`.",
                if r.yards_names {
                    "a trouble"
                } else {
                    "an attack"
                },
                self.card_name(super::cards::Card::Stop)
            ),
        }
    }
}

impl Game for CardRace {
    type Options = Options;
    type Order = Order;
    type Event = Event;
    type PublicView = PublicView;
    type PrivateView = PrivateView;
    type SyntaxError = SyntaxError;
    type IllegalOrder = IllegalOrder;

    const SEQUENTIAL: bool = true;

    fn check_options(options: &Options) -> Result<(), OptionsError> {
        options.check()
    }

    fn seat_limits(options: &Options) -> (usize, usize) {
        let counts = options.rules().seat_counts;
        (
            counts.iter().copied().min().unwrap_or(2),
            counts.iter().copied().max().unwrap_or(2),
        )
    }

    fn check_seat_choice(options: &Options, choice: &str) -> Result<(), String> {
        CounterPref::parse(choice)
            .map(|_| ())
            .ok_or_else(|| choice_error(options.rules()))
    }

    fn setup(options: &Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError> {
        CardRace::setup_stacked(options, seats, seed, Vec::new())
    }

    fn pending(&self) -> Pending {
        match self.phase.as_ref() {
            Phase::Over => Pending::none(),
            Phase::Turn { seat } if self.options.rounds == 1 => {
                Pending::one(*seat, format!("{} to play", self.name(*seat)))
            }
            Phase::Turn { seat } => Pending::one(
                *seat,
                format!("Round {}: {} to play", self.round, self.name(*seat)),
            ),
            Phase::Extension { seat } => Pending::one(
                *seat,
                format!("{}: extend the trip to 1000?", self.name(*seat)),
            ),
            Phase::Window(w) => {
                let mut seats = w.victims.clone();
                if let Some(n) = w.next
                    && !seats.contains(&n)
                {
                    seats.push(n);
                }
                Pending {
                    mode: Mode::Any,
                    seats,
                    window: self.options.counter_timeout.window(),
                    label: format!(
                        "{} may answer the {} with a {}",
                        self.team_label(w.team),
                        self.card_name(w.attack),
                        self.rules().dirty_trick_name
                    ),
                }
            }
        }
    }

    fn prompt(&self, seat: Seat) -> Prompt {
        let orders = self.legal_orders(seat);
        let choices = orders
            .iter()
            .map(|o| {
                let c = Choice::new(self.format_order(seat, o), self.order_label(o));
                match o {
                    Order::Play { card, .. } => c.grouped(self.card_name(*card)),
                    Order::Junk { .. } => c.grouped("junk"),
                    _ => c,
                }
            })
            .collect();
        let text = match self.phase.as_ref() {
            Phase::Window(w) if w.victims.contains(&seat) => format!(
                "{} played {} on your team. Answer with a {}?",
                self.name(w.attacker),
                self.attack_text(w.attack),
                self.rules().dirty_trick_name
            ),
            Phase::Window(w) => format!(
                "Your turn is next: {} may still answer the {}. Play to go on.",
                self.team_label(w.team),
                self.card_name(w.attack)
            ),
            Phase::Extension { .. } => format!(
                "You reached exactly {}. Extend the trip to 1000, or stop here?",
                self.target
            ),
            // The hand is in the view beside the question, shown once.
            Phase::Turn { .. } => "Your turn: play or junk a card.".into(),
            Phase::Over => "The game is over.".into(),
        };
        Prompt {
            text,
            choices,
            complete: true,
            hint: self.order_hint(seat),
        }
    }

    fn parse_order(&self, seat: Seat, text: &str) -> Result<Order, SyntaxError> {
        self.read_order_text(seat, text)
    }

    fn validate(&self, seat: Seat, order: &Order) -> Result<(), IllegalOrder> {
        self.check(seat, order)
    }

    fn format_order(&self, _seat: Seat, order: &Order) -> String {
        self.order_text(order)
    }

    fn default_order(&self, seat: Seat) -> Order {
        match self.phase.as_ref() {
            // At the deadline an unanswered attack stands.
            Phase::Window(w) if w.victims.contains(&seat) => Order::Decline,
            _ => bot::heuristic(self, seat),
        }
    }

    fn apply(&mut self, orders: &[Submitted<Order>]) -> Vec<Event> {
        let mut ev = Vec::new();
        let Some(first) = self.first_to_act() else {
            return ev;
        };
        let chosen = orders
            .iter()
            .find(|s| self.may_act(s.seat) && self.check(s.seat, &s.order).is_ok());
        let (seat, order, missed) = match chosen {
            Some(s) => (s.seat, s.order, s.missed),
            None => (first, self.default_order(first), true),
        };
        match self.phase.as_ref().clone() {
            Phase::Turn { .. } => self.act(seat, order, missed, &mut ev),
            Phase::Extension { .. } => {
                self.decide_extension(seat, order == Order::Extend, missed, &mut ev);
            }
            Phase::Window(w) => self.answer_window(w, seat, order, missed, &mut ev),
            Phase::Over => {}
        }
        ev
    }

    fn public_view(&self) -> PublicView {
        self.view_for_channel()
    }

    fn private_view(&self, seat: Seat) -> PrivateView {
        self.view_for_seat(seat)
    }

    fn outcome(&self) -> Option<Outcome> {
        if *self.phase != Phase::Over {
            return None;
        }
        // Teammates share their team's total, so they share a rank. The engine's contract
        // ranks seats (1 + the seats ahead), so a two-team game's losers are "3rd" in
        // seat terms; the game's own end text names teams (see narrate).
        let scores: Vec<(Seat, i64)> = Seat::all(self.players())
            .map(|s| (s, self.team_of(s).map(|t| t.total).unwrap_or(0)))
            .collect();
        Some(Outcome::from_scores(&scores))
    }

    fn check(&self) -> Result<(), StateError> {
        self.check_state()
    }

    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        let hidden: Vec<Seat> = Seat::all(self.players())
            .filter(|&s| Some(s) != viewer)
            .collect();
        let mut pool = std::mem::take(&mut g.deck);
        for &s in &hidden {
            if let Some(h) = g.hands.get_mut(s.index()) {
                pool.append(h);
            }
        }
        // Sorted first, so the redraw depends only on what the viewer knows (the expert
        // bot's no-peeking test relies on it); future shuffles are redrawn too.
        pool.sort_unstable();
        rng.shuffle(&mut pool);
        g.rng = rng.fork();
        for &s in &hidden {
            let n = self.hand(s).len();
            if let Some(h) = g.hands.get_mut(s.index()) {
                let at = pool.len().saturating_sub(n);
                *h = pool.split_off(at);
            }
        }
        g.deck = pool;
        g
    }
}

impl Bots for CardRace {
    // A bot order is cheap and a playout stops at the end of the hand (docs/performance.md,
    // "Expert bot").
    const EXPERT_STEPS: u64 = 45_000;

    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Order {
        let orders = self.legal_orders(seat);
        rng.choose(&orders)
            .copied()
            .unwrap_or_else(|| bot::heuristic(self, seat))
    }

    fn heuristic_order(&self, seat: Seat, _rng: &mut GameRng) -> Order {
        bot::heuristic(self, seat)
    }

    /// A playout stops once the hand it began in has ended: the totals then tell the
    /// result well enough, and the later hands are mostly luck.
    fn playout_value(&self, start: &Self, seat: Seat) -> Option<f64> {
        (self.round != start.round && *self.phase != Phase::Over).then(|| self.win_chance(seat))
    }

    /// The deck alone redrawn, every hand kept: for the expert's hand-peeking cheat only.
    fn resample_deck_cheat(&self, _viewer: Seat, rng: &mut GameRng) -> Self {
        let mut g = self.clone();
        g.deck.sort_unstable();
        rng.shuffle(&mut g.deck);
        g.rng = rng.fork();
        g
    }
}

impl Preferences for CardRace {
    const ASK_TARGETS: AskTargets = AskTargets {
        per_seat: None,
        half_of_ask: true,
    };

    fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        if StandingPlays::is_standing_text(text) {
            return self.set_standing(seat, text);
        }
        let yards = self.rules().yards_names;
        let (key, card) = if yards {
            ("counter", "protection")
        } else {
            ("dirty-trick", "immunity")
        };
        let pref = CounterPref::parse(text).ok_or_else(|| {
            PreferenceError::Invalid(format!(
                "write `{key} auto` (play it the instant the attack lands) or \
                 `{key} ask` (a button, and a short window to answer)"
            ))
        })?;
        let slot = self
            .prefs
            .get_mut(seat.index())
            .ok_or_else(|| PreferenceError::Invalid("you have no seat in this game".into()))?;
        *slot = pref;
        let title = capitalise(self.rules().dirty_tricks_name);
        Ok(match pref {
            CounterPref::Auto => format!(
                "{title}: auto. When you hold the {card}, it is played the instant the attack lands."
            ),
            CounterPref::Ask => format!(
                "{title}: ask. After an attack on your team you have {} to answer `counter` \
                 (or play the {card} by its name) or `decline`; the next player's play closes \
                 the window. Beware: how long you take can tell the table that you hold the card.",
                self.options.counter_timeout
            ),
        })
    }

    /// On your turn, an immunity that ends a problem in force on your team: it fixes the
    /// problem, scores, and gives another turn; nothing else does all three.
    fn obvious_order(&self, seat: Seat) -> Option<Order> {
        if !matches!(self.phase.as_ref(), Phase::Turn { seat: s } if *s == seat) {
            return None;
        }
        let team = self.team_of(seat)?;
        self.hand(seat)
            .iter()
            .copied()
            .filter(|c| c.is_safety() && c.protects().iter().any(|&p| team.has(p)))
            .map(|card| Order::Play { card, target: None })
            .find(|o| self.check(seat, o).is_ok())
    }

    /// The seat's standing plays (docs/rules/1000-miles.md, *Standing plays*).
    fn standing_order(&self, seat: Seat) -> Option<(Order, String)> {
        match self.standing(seat).decide(self, seat) {
            Decision::Play(order, rule) => Some((order, rule.word().to_string())),
            Decision::Conflict(_) | Decision::Uncovered => None,
        }
    }
}

impl Presentation for CardRace {
    const CHANCE: Option<&'static str> = Some("every shuffle");

    fn narrate(&self, event: &Event) -> Narration {
        self.narration(event)
    }

    /// 1000 Yards is told in its own rulebook's words.
    fn rules_summary(options: &Options) -> &'static str {
        if options.rules().yards_names {
            YARDS_SUMMARY
        } else {
            MILES_SUMMARY
        }
    }

    fn option_docs() -> &'static [OptionDoc] {
        OPTION_DOCS
    }

    fn seat_choice_help(options: &Options) -> Option<&'static str> {
        Some(if options.rules().yards_names {
            YARDS_SEAT_CHOICE
        } else {
            MILES_SEAT_CHOICE
        })
    }

    fn preference_help(options: &Options) -> Option<&'static str> {
        Some(if options.rules().yards_names {
            YARDS_PREFERENCE_HELP
        } else {
            MILES_PREFERENCE_HELP
        })
    }
}
