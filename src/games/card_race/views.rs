//! What the channel and each seat's DM see: the public view (never a hand, never the
//! deck's order) and the private view (the seat's hand and its team's tableau).

use serde::{Deserialize, Serialize};

use super::cards::Card;
use super::rules::CounterPref;
use super::state::{CardRace, Order, Phase, RoundResult, SafetyPlay, Team, TurnMark};
use crate::engine::{DecisionWindow, Game, Seat};

/// One player as the channel sees them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PlayerView {
    pub seat: Seat,
    pub name: String,
    pub team: u8,
    pub hand_size: usize,
    pub dirty_trick: CounterPref,
}

/// One team's tableau as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TeamView {
    pub team: u8,
    pub label: String,
    pub members: Vec<Seat>,
    pub distance: u32,
    pub rolling: bool,
    /// Attacks in force.
    pub problems: Vec<Card>,
    /// Waiting for a green light.
    pub needs_go: bool,
    pub limited: bool,
    pub counterflow: bool,
    pub safeties: Vec<SafetyPlay>,
    pub two_hundreds: usize,
    /// Distance cards played, by value.
    pub miles: Vec<Card>,
    /// This round's score so far (without the bonuses for completing the trip).
    pub round_score: i64,
    /// Score from finished rounds.
    pub total: i64,
}

/// The dirty-trick window as everyone sees it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct WindowView {
    pub attacker: Seat,
    pub attack: Card,
    pub team: u8,
    pub victims: Vec<Seat>,
    pub next: Option<Seat>,
    /// How long the victims have (`turn`: the race's turn length).
    pub window: DecisionWindow,
}

/// What the channel sees: never a hand, never the deck's order.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PublicView {
    pub title: String,
    pub unit: String,
    /// Use 1000 Yards' card names.
    pub yards_names: bool,
    pub round: u32,
    pub target: u32,
    pub target_score: u32,
    pub rounds: u32,
    pub extended_by: Option<u8>,
    pub teams: Vec<TeamView>,
    pub players: Vec<PlayerView>,
    pub deck_left: usize,
    pub discard: Vec<Card>,
    pub turn: Option<Seat>,
    pub window: Option<WindowView>,
    pub extension_decision: Option<Seat>,
    pub history: Vec<RoundResult>,
    pub finished: bool,
    pub winners: Vec<Seat>,
    /// This round's distances turn by turn, for the race chart.
    #[serde(default)]
    pub turns: Vec<TurnMark>,
}

/// One seat's DM: its hand and its team's tableau.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PrivateView {
    pub seat: Seat,
    pub name: String,
    pub yards_names: bool,
    pub target: u32,
    pub hand: Vec<Card>,
    pub tableau: TeamView,
    pub your_turn: bool,
    /// An attack on your team that you may answer now.
    pub may_counter: bool,
    pub dirty_trick: CounterPref,
    pub deck_left: usize,
}

impl CardRace {
    fn team_view(&self, i: usize, t: &Team) -> TeamView {
        let s = self.rules().scoring;
        let mut round_score = i64::from(t.distance) + s.per_safety * t.safeties.len() as i64;
        round_score += s.dirty_trick * t.safeties.iter().filter(|p| p.dirty_trick).count() as i64;
        if t.safeties.len() == 4 && !s.all_safeties_needs_trip {
            round_score += s.all_safeties;
        }
        let mut miles = t.miles.clone();
        miles.sort();
        TeamView {
            team: i as u8,
            label: self.team_label(i as u8),
            members: t.members.clone(),
            distance: t.distance,
            rolling: t.rolling(),
            problems: t.battle.problems.clone(),
            needs_go: t.battle.needs_go && !t.has_safety(Card::RightOfWay),
            limited: t.limited(),
            counterflow: t.counterflow(),
            safeties: t.safeties.clone(),
            two_hundreds: t.two_hundreds(),
            miles,
            round_score,
            total: t.total,
        }
    }

    /// The channel's view (the `Game::public_view` contract).
    pub(super) fn view_for_channel(&self) -> PublicView {
        let finished = *self.phase == Phase::Over;
        PublicView {
            title: self.rules().title.into(),
            unit: self.rules().unit.into(),
            yards_names: self.rules().yards_names,
            round: self.round,
            target: self.target,
            target_score: self.options.target_score,
            rounds: self.options.rounds,
            extended_by: self.extended_by,
            teams: self
                .teams
                .iter()
                .enumerate()
                .map(|(i, t)| self.team_view(i, t))
                .collect(),
            players: Seat::all(self.players())
                .map(|s| PlayerView {
                    seat: s,
                    name: self.name(s).into(),
                    team: self.team_index(s),
                    hand_size: self.hand(s).len(),
                    dirty_trick: self.pref(s),
                })
                .collect(),
            deck_left: self.deck.len(),
            discard: self.discard.clone(),
            turn: match self.phase.as_ref() {
                Phase::Turn { seat } => Some(*seat),
                _ => None,
            },
            window: match self.phase.as_ref() {
                Phase::Window(w) => Some(WindowView {
                    attacker: w.attacker,
                    attack: w.attack,
                    team: w.team,
                    victims: w.victims.clone(),
                    next: w.next,
                    window: self.options.counter_timeout,
                }),
                _ => None,
            },
            extension_decision: match self.phase.as_ref() {
                Phase::Extension { seat } => Some(*seat),
                _ => None,
            },
            history: self.history.clone(),
            finished,
            winners: self.outcome().map(|o| o.winners()).unwrap_or_default(),
            turns: self.marks.clone(),
        }
    }

    /// One seat's view (the `Game::private_view` contract).
    pub(super) fn view_for_seat(&self, seat: Seat) -> PrivateView {
        let team = self.team_index(seat);
        let tableau = self
            .team(team)
            .map(|t| self.team_view(usize::from(team), t))
            .unwrap_or_else(|| self.team_view(0, &Team::new(Vec::new())));
        let mut hand = self.hand(seat).to_vec();
        hand.sort();
        PrivateView {
            seat,
            name: self.name(seat).into(),
            yards_names: self.rules().yards_names,
            target: self.target,
            hand,
            tableau,
            your_turn: self.may_play(seat),
            may_counter: matches!(self.phase.as_ref(), Phase::Window(w) if w.victims.contains(&seat))
                && self.check(seat, &Order::Counter).is_ok(),
            dirty_trick: self.pref(seat),
            deck_left: self.deck.len(),
        }
    }
}
