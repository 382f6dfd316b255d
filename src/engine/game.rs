//! The four traits of the contract ([`Game`], [`Bots`], [`Preferences`],
//! [`Presentation`]) and [`read_order`], which reads an order as the referee does.

use std::fmt::Debug;

use serde::Serialize;
use serde::de::DeserializeOwned;

use super::error::{OptionsError, OrderError, PreferenceError, SetupError, StateError};
use super::options::OptionDoc;
use super::outcome::{Narration, Outcome};
use super::pending::{Pending, Prompt, Submitted};
use super::rng::{GameRng, Seed};
use super::seat::{Seat, SeatSetup};

/// Bounds shared by every piece of data that a state carries or stores.
pub trait Data:
    Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}
impl<T> Data for T where
    T: Clone + Debug + PartialEq + Serialize + DeserializeOwned + Send + Sync + 'static
{
}

/// The rules: what the referee drives a race with. Every game implements it, with
/// [`Bots`], [`Preferences`] and [`Presentation`] beside it.
///
/// Invariants the [`conformance`] test checks for every game:
/// - `pending()` is empty exactly when `outcome()` is `Some`;
/// - every state reached passes `check()`;
/// - every prompt choice, every `default_order`, `random_order` and `bot_order`
///   parses (from its `format_order` text) and validates;
/// - the state survives a serde round trip, and the same seed and orders give the
///   same game;
/// - `public_view` does not change when everything hidden from the public is
///   resampled, and `private_view(s)` does not change when what `s` cannot see is.
///
/// # Example
///
/// A whole game in a few lines: every runner picks 1, 2 or 3 steps at once, in secret,
/// and the first to reach 5 wins (nothing is hidden, and there are no options). The
/// referee drives it as below, and [`conformance::check`] proves it keeps the contract.
///
/// ```
/// use photofinish::engine::conformance::{SimSpec, check};
/// use photofinish::engine::*;
/// use serde::{Deserialize, Serialize};
///
/// #[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
/// struct Dash {
///     at: Vec<u32>,
///     turn: u32,
/// }
///
/// /// Syntax errors are the game's own type; this one quotes what it could not read.
/// #[derive(Debug)]
/// struct NotASpeed(String);
/// impl std::fmt::Display for NotASpeed {
///     fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
///         write!(f, "`{}` is not 1, 2 or 3", self.0)
///     }
/// }
/// impl std::error::Error for NotASpeed {}
///
/// impl Game for Dash {
///     type Options = ();
///     type Order = u32;
///     type Event = (Seat, u32);
///     type PublicView = Vec<u32>;
///     type PrivateView = Vec<u32>;
///     type SyntaxError = NotASpeed;
///     // Every well-formed order is legal here; most games have a real type.
///     type IllegalOrder = std::convert::Infallible;
///
///     fn seat_limits(_: &()) -> (usize, usize) { (2, 4) }
///     fn setup(_: &(), seats: &[SeatSetup], _: Seed) -> Result<Dash, SetupError> {
///         match seats.len() {
///             2..=4 => Ok(Dash { at: vec![0; seats.len()], turn: 0 }),
///             got => Err(SetupError::SeatCount { min: 2, max: 4, got }),
///         }
///     }
///     fn pending(&self) -> Pending {
///         if self.outcome().is_some() {
///             return Pending::none();
///         }
///         Pending::all(Seat::all(self.at.len()).collect(), format!("Turn {}", self.turn + 1))
///     }
///     fn prompt(&self, _: Seat) -> Prompt {
///         Prompt {
///             text: "How far do you run?".into(),
///             choices: (1..=3).map(|n| Choice::new(n.to_string(), format!("{n}"))).collect(),
///             complete: true,
///             hint: "1, 2 or 3".into(),
///         }
///     }
///     fn parse_order(&self, _: Seat, text: &str) -> Result<u32, NotASpeed> {
///         match text.trim().parse() {
///             Ok(n @ 1..=3) => Ok(n),
///             _ => Err(NotASpeed(text.into())),
///         }
///     }
///     fn validate(&self, _: Seat, _: &u32) -> Result<(), Self::IllegalOrder> { Ok(()) }
///     fn format_order(&self, _: Seat, order: &u32) -> String { order.to_string() }
///     fn default_order(&self, _: Seat) -> u32 { 1 }
///     fn apply(&mut self, orders: &[Submitted<u32>]) -> Vec<(Seat, u32)> {
///         let pending = self.pending();
///         let mut events = Vec::new();
///         for o in orders.iter().filter(|o| pending.includes(o.seat)) {
///             if let Some(at) = self.at.get_mut(o.seat.index()) {
///                 *at += o.order;
///                 events.push((o.seat, o.order));
///             }
///         }
///         self.turn += 1;
///         events
///     }
///     fn public_view(&self) -> Vec<u32> { self.at.clone() }
///     fn private_view(&self, _: Seat) -> Vec<u32> { self.at.clone() }
///     fn outcome(&self) -> Option<Outcome> {
///         let scores: Vec<(Seat, i64)> =
///             Seat::all(self.at.len()).zip(&self.at).map(|(s, &a)| (s, i64::from(a))).collect();
///         self.at.iter().any(|&a| a >= 5).then(|| Outcome::from_scores(&scores))
///     }
///     fn check(&self) -> Result<(), StateError> {
///         StateError::range("the number of runners", self.at.len(), 2, 4)?;
///         for (i, &at) in self.at.iter().enumerate() {
///             StateError::range(format_args!("runner {}'s position", i + 1), at, 0, 4 + 3)?;
///         }
///         Ok(())
///     }
///     // Nothing is hidden, so there is nothing to draw again.
///     fn resample_hidden(&self, _: Option<Seat>, _: &mut GameRng) -> Dash { self.clone() }
/// }
///
/// // The random bot is required; the heuristic defaults to the default order.
/// impl Bots for Dash {
///     fn random_order(&self, _: Seat, rng: &mut GameRng) -> u32 { 1 + rng.below(3) }
/// }
///
/// // No preferences, and no order is obvious: autopilot plays only forced orders.
/// impl Preferences for Dash {}
///
/// impl Presentation for Dash {
///     fn narrate(&self, (seat, n): &(Seat, u32)) -> Narration {
///         Narration::public(format!("{seat} runs {n}"))
///     }
///     fn rules_summary(_: &()) -> &'static str { "Run 1, 2 or 3 each turn; first to 5 wins." }
///     fn option_docs() -> &'static [OptionDoc] { &[] }
/// }
///
/// // What the referee does with every order: parse, then validate, typed apart.
/// let seats = [SeatSetup::named("Ann"), SeatSetup::named("Bob")];
/// let mut race = Dash::setup(&(), &seats, Seed::from_u64(7))?;
/// let ann = read_order(&race, Seat(0), "3")?;
/// assert!(matches!(read_order(&race, Seat(1), "4"), Err(OrderError::Syntax(_))));
/// let events = race.apply(&[Submitted::new(Seat(0), ann), Submitted::missed(Seat(1), 1)]);
/// assert_eq!(race.narrate(&events[0]).text, "seat 1 runs 3");
/// assert_eq!(race.public_view(), vec![3, 1]);
///
/// // The generic test every game passes: seeded random games, invariants at each step.
/// let report = check(&SimSpec::<Dash>::new((), 3, 20))?;
/// assert_eq!(report.games, 20);
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub trait Game: Data {
    /// Race options chosen by the host; `Default` is the standard game.
    type Options: Data + Default;
    /// A typed order, once parsed.
    type Order: Data;
    /// What happened, in order; stored in the log and narrated.
    type Event: Data;
    /// All that the channel may see.
    type PublicView: Data;
    /// All that one seat may see.
    type PrivateView: Data;
    /// An order's text could not be read.
    type SyntaxError: std::error::Error + Send + Sync + 'static;
    /// An order was read but is not allowed now.
    type IllegalOrder: std::error::Error + Send + Sync + 'static;

    /// Whether seats act in turn, one after another (the card races, Magical Athlete),
    /// rather than all at once: the referee then tells a round's steps in one channel
    /// post, and holds a player's own play for the grace window.
    const SEQUENTIAL: bool = false;

    /// Checks options on their own (before any seat is known).
    fn check_options(options: &Self::Options) -> Result<(), OptionsError> {
        let _ = options;
        Ok(())
    }

    /// How many seats the game takes with these options.
    fn seat_limits(options: &Self::Options) -> (usize, usize);

    /// Checks one seat's pre-race choice when it is made.
    fn check_seat_choice(options: &Self::Options, choice: &str) -> Result<(), String> {
        let _ = (options, choice);
        Err("this game has no choice to make before the start".into())
    }

    /// Builds the state. All randomness comes from `seed`.
    fn setup(options: &Self::Options, seats: &[SeatSetup], seed: Seed) -> Result<Self, SetupError>;

    /// Who must act now. Empty exactly when the game is over.
    fn pending(&self) -> Pending;

    /// What `seat` is asked now, with its legal choices.
    fn prompt(&self, seat: Seat) -> Prompt;

    /// Reads order text (syntax only).
    fn parse_order(&self, seat: Seat, text: &str) -> Result<Self::Order, Self::SyntaxError>;

    /// Checks a parsed order against the state (legality only).
    fn validate(&self, seat: Seat, order: &Self::Order) -> Result<(), Self::IllegalOrder>;

    /// The canonical text of an order; `parse_order` reads it back to the same order.
    fn format_order(&self, seat: Seat, order: &Self::Order) -> String;

    /// The order played for a seat that missed its deadline, by the game's own rule.
    /// Always legal.
    fn default_order(&self, seat: Seat) -> Self::Order;

    /// Applies validated orders for the pending seats and returns what happened.
    ///
    /// Infallible: an order that would not validate is replaced by the seat's
    /// default order, and orders from seats that are not pending are ignored.
    fn apply(&mut self, orders: &[Submitted<Self::Order>]) -> Vec<Self::Event>;

    /// A recorded event in the form `apply` gives it today, for a log an older release
    /// wrote: a replay compares its events with these. Only the record's form may change
    /// (a field since derived otherwise, words since reworded), never what happened.
    fn upgrade_event(event: Self::Event) -> Self::Event {
        event
    }

    fn public_view(&self) -> Self::PublicView;

    fn private_view(&self, seat: Seat) -> Self::PrivateView;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<Outcome>;

    /// Checks the invariants every state of this game holds: positions in range, cards
    /// that add up, the number of seats, scores within bounds, a consistent phase. The
    /// referee runs it on every state it loads from the store and stops a race whose
    /// state decodes but fails it; the conformance test runs it at every step, so a state
    /// that play reaches always passes. Pure, and cheap next to a decision.
    fn check(&self) -> Result<(), StateError>;

    /// A state that `viewer` (`None`: the public) cannot tell apart from this one, with
    /// everything hidden from them (hands, deck order, others' hidden choices) drawn again.
    fn resample_hidden(&self, viewer: Option<Seat>, rng: &mut GameRng) -> Self;
}

/// The bots: what plays a seat set to a [`BotLevel`], read by the referee's bot seats
/// (through [`Bots::bot_order`]), the expert ([`expert`]), the conformance test and the
/// simulations (`sim`). Kept apart from the rules, as OpenSpiel keeps its bots in
/// `algorithms/`.
pub trait Bots: Game {
    /// The expert's default budget, in bot orders played per decision
    /// ([`expert::Budget::steps`]): sized so that a decision takes at most 50 ms in a
    /// release build on one core (docs/performance.md, "Expert bot"). A game whose bot
    /// orders cost more (a pathfinder, whole races of powers) sets fewer.
    const EXPERT_STEPS: u64 = 20_000;

    /// A legal order drawn at random: the random bot, and the simulation tests.
    fn random_order(&self, seat: Seat, rng: &mut GameRng) -> Self::Order;

    /// The game's own sound heuristic: the heuristic bot, and the expert's model of
    /// every other seat. Always legal. Games override this, not [`bot_order`](super::bot_order).
    fn heuristic_order(&self, seat: Seat, rng: &mut GameRng) -> Self::Order {
        let _ = rng;
        self.default_order(seat)
    }

    /// Orders worth the expert's trying besides the heuristic's and the prompt's choices
    /// (variations a player would weigh), best guesses first. Need not be legal: the
    /// expert drops those that do not validate. Reads only what `seat` may see.
    fn expert_candidates(&self, seat: Seat, rng: &mut GameRng) -> Vec<Self::Order> {
        let _ = (seat, rng);
        Vec::new()
    }

    /// Where the expert bot's playouts may stop: `seat`'s chance of winning, from 0 to 1,
    /// once play from `start` has reached a point that tells the result well enough (the
    /// card races: the end of the hand, valued by the totals). `None`, the default, plays
    /// on to the end of the game. Reads only what every seat sees.
    fn playout_value(&self, start: &Self, seat: Seat) -> Option<f64> {
        let _ = (start, seat);
        None
    }

    /// For measurement only (the expert's hand-peeking cheat, `sim --bots handpeek`): this
    /// state with every hand kept and only the deck order and future shuffles redrawn from
    /// what `viewer` cannot see. The default redraws everything hidden, as
    /// [`Game::resample_hidden`] does; games with hands override it.
    fn resample_deck_cheat(&self, viewer: Seat, rng: &mut GameRng) -> Self {
        self.resample_hidden(Some(viewer), rng)
    }
}

/// A seat's standing settings, and the orders autopilot ([`autopilot()`]) plays for a
/// seat without asking. Read by the referee's preference and autopilot paths, and by
/// `sim --pace`, which checks [`Preferences::ASK_TARGETS`]. Every method has a default:
/// a game with no preferences and no obvious orders implements it empty.
pub trait Preferences: Game {
    /// How few questions `auto` leaves a seat, as `sim --pace` checks it.
    const ASK_TARGETS: AskTargets = AskTargets::NONE;

    /// Sets a seat's standing preference from text (a policy for optional powers, a
    /// dirty-trick setting). Returns a confirmation to show the seat.
    fn set_preference(&mut self, seat: Seat, text: &str) -> Result<String, PreferenceError> {
        let _ = (seat, text);
        Err(PreferenceError::NotSupported)
    }

    /// The order a sensible player would always make here, by the game's documented
    /// obvious rule (`docs/rules/<game>.md`); `None` when the decision matters. Autopilot
    /// plays it without asking, as it plays forced orders.
    fn obvious_order(&self, seat: Seat) -> Option<Self::Order> {
        let _ = seat;
        None
    }

    /// The order the seat's own standing plays decide here (the card races' `standing`
    /// rules), with the rule's name; `None`: they do not decide it (no rule covers the
    /// step, or a rule sees two equally good plays). Autopilot plays it under `auto` only.
    fn standing_order(&self, seat: Seat) -> Option<(Self::Order, String)> {
        let _ = seat;
        None
    }
}

/// How a game is told and explained: its events in words, its help, and the words of its
/// pre-race choice. Read by the referee (narration into announcements), `render` and
/// the help and settings of the adapters. Help takes the options, so kinds that share an
/// engine (1000 miles and 1000 Yards) are each told in their own words.
pub trait Presentation: Game {
    /// What chance decides in the game, as in "anyone can check every shuffle" (the start
    /// post's fair-dice line); `None`: the game has no dice, and the seed picks only the
    /// bots' orders.
    const CHANCE: Option<&'static str> = None;

    /// Tells one event in words, with who may read it.
    fn narrate(&self, event: &Self::Event) -> Narration;

    /// Tells one step's events in words, in order: a game may tell two events that say one
    /// thing in one line, or say nothing of an event the next one tells.
    fn narrate_all(&self, events: &[Self::Event]) -> Vec<Narration> {
        events.iter().map(|e| self.narrate(e)).collect()
    }

    /// A one-paragraph reminder of how to play, for `/race help`.
    fn rules_summary(options: &Self::Options) -> &'static str;

    /// Documented options, for help and settings.
    fn option_docs() -> &'static [OptionDoc];

    /// What a seat may choose before the start (`None`: nothing), e.g. a maximum speed.
    fn seat_choice_help(options: &Self::Options) -> Option<&'static str> {
        let _ = options;
        None
    }

    /// The pre-race choices a menu offers after Join, as (label, choice text); empty for a
    /// game without a closed list.
    fn seat_choice_menu(options: &Self::Options) -> Vec<(String, String)> {
        let _ = options;
        Vec::new()
    }

    /// The pre-race choice that caps a seat's speed at `max` (`play --max-speed`);
    /// `None`: the game has no maximum speed to choose.
    fn max_speed_choice(max: u8) -> Option<String> {
        let _ = max;
        None
    }

    /// How to write preferences, for help (`None`: the game has none).
    fn preference_help(options: &Self::Options) -> Option<&'static str> {
        let _ = options;
        None
    }

    /// A reference the game's own help page adds after its rules (Magical Athlete: every
    /// racer's power); `None`: none.
    fn glossary() -> Option<Glossary> {
        None
    }
}

/// A game's reference for its help page: a heading, and each term with its text.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Glossary {
    pub title: &'static str,
    pub entries: Vec<(String, String)>,
}

/// Parses and validates in one go, as the referee does for every order.
pub fn read_order<G: Game>(game: &G, seat: Seat, text: &str) -> Result<G::Order, OrderError> {
    if !game.pending().includes(seat) {
        return Err(OrderError::NotYourTurn);
    }
    // Every label a prompt shows (a button, a select option, the terminal's `Choices:`)
    // reads back as its choice, whatever the game's own order syntax.
    let order = match label_choice(game, seat, text) {
        Some(order) => order,
        None => game
            .parse_order(seat, text)
            .map_err(|e| OrderError::Syntax(e.to_string()))?,
    };
    game.validate(seat, &order)
        .map_err(|e| OrderError::Illegal(e.to_string()))?;
    Ok(order)
}

/// The choice of `seat`'s prompt whose label is `text` (case and spacing aside), read as
/// its order text; `None` when no label matches, or two choices share it.
fn label_choice<G: Game>(game: &G, seat: Seat, text: &str) -> Option<G::Order> {
    let squash = |t: &str| {
        t.split_whitespace()
            .collect::<Vec<_>>()
            .join(" ")
            .to_lowercase()
    };
    let wanted = squash(text);
    if wanted.is_empty() {
        return None;
    }
    let prompt = game.prompt(seat);
    let mut found: Option<G::Order> = None;
    for c in prompt.choices.iter().filter(|c| squash(&c.label) == wanted) {
        let order = game.parse_order(seat, &c.order).ok()?;
        match &found {
            Some(f) if *f != order => return None,
            _ => found = Some(order),
        }
    }
    found
}

/// How few questions `auto` leaves a seat in a game, as `sim --pace` checks it at every
/// length preset ([`Preferences::ASK_TARGETS`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct AskTargets {
    /// At most this many questions a seat, on average and in every game, at the game's
    /// default options; with why one game may ask more, told when it does.
    pub per_seat: Option<(u64, &'static str)>,
    /// At most half the questions `ask` gets.
    pub half_of_ask: bool,
}

impl AskTargets {
    /// No target beyond the one every game has (no single-choice question under `auto`).
    pub const NONE: AskTargets = AskTargets {
        per_seat: None,
        half_of_ask: false,
    };
}
