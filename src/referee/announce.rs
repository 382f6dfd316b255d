//! Announcements: what the referee wants said, and to whom. The outbox holds them until an
//! adapter (Discord, the terminal) delivers them; `render::post` turns them into words.

use serde::{Deserialize, Serialize};

use crate::engine::{Prompt, Seat};
use crate::games::{AnyPrivateView, AnyPublicView, GameKind};
use crate::vocab::{CampaignId, Millis, Phase, UserId};

/// Where an announcement goes.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "to", rename_all = "kebab-case")]
pub enum Target {
    /// A new post in the race's channel.
    Channel,
    /// The race's status message, edited in place (posted the first time).
    Status,
    /// The lobby message, edited in place (posted the first time).
    Lobby,
    /// A direct message to a seated player.
    Dm { user: UserId, seat: Seat },
}

/// One seat's line in the lobby.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbySeat {
    pub name: String,
    pub bot: bool,
    pub choice: Option<String>,
}

/// Where a seat stands in the open step, for the status message.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum SeatState {
    /// Has an order in (✓).
    Ordered,
    /// Must still order (…).
    Waiting,
    /// Has nothing to do in this step.
    Idle,
}

/// A seat in the status message: never what was ordered, only whether.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct StatusSeat {
    pub name: String,
    pub state: SeatState,
    pub bot: bool,
    /// The public receipt of the order in, if any.
    pub receipt: Option<String>,
    /// The seat's time bank, in a race with `clock=`.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub bank: Option<BankShown>,
}

/// A seat's time bank as the status shows it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct BankShown {
    /// What is left now (stopped once the seat has ordered).
    pub left_ms: i64,
    /// When it runs out, while it runs.
    pub due: Option<Millis>,
    /// It ran out in this step: the seat's default order plays.
    #[serde(default)]
    pub ran_out: bool,
}

/// An order that missed its deadline, and what was played instead.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct MissedOrder {
    pub name: String,
    pub played: String,
}

/// An order revealed after its step resolved, with what proves its receipt.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RevealedOrder {
    pub step: u32,
    pub name: String,
    pub order: String,
    pub nonce: String,
    pub receipt: String,
    pub source: crate::store::OrderSource,
}

/// One step of a round, as the round's post tells it in a compact line.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RoundStep {
    pub step: u32,
    /// The step's label ("Round 1: Alice to play").
    pub label: String,
    /// What happened, in the game's own narration.
    pub lines: Vec<String>,
}

/// The step that opens next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NextStep {
    pub label: String,
    pub deadline: Option<Millis>,
    pub waiting_on: Vec<String>,
}

/// A final placing.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct FinalPlace {
    pub rank: u32,
    pub name: String,
    pub score: Option<i64>,
}

/// Something the referee says.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "kebab-case")]
pub enum Announcement {
    /// The lobby: who has joined, and the options.
    Lobby {
        race: CampaignId,
        game: GameKind,
        phase: Phase,
        options: String,
        seats: Vec<LobbySeat>,
        min: usize,
        max: usize,
    },
    /// The race began: the seating and the seed's commitment.
    Started {
        race: CampaignId,
        game: GameKind,
        seats: Vec<String>,
        commitment: String,
    },
    /// One or more steps resolved (a chain of bot steps is told at once), or a whole
    /// round of a sequential game (`steps` then holds its compact lines).
    TurnResolved {
        race: CampaignId,
        game: GameKind,
        labels: Vec<String>,
        narration: Vec<String>,
        /// A round's steps, one compact entry each (`referee::round`); empty in a
        /// simultaneous game's post, whose `narration` tells its turn.
        #[serde(default, skip_serializing_if = "Vec::is_empty")]
        steps: Vec<RoundStep>,
        missed: Vec<MissedOrder>,
        revealed: Vec<RevealedOrder>,
        view: AnyPublicView,
        /// The deadline had long passed (the bot was down): resolved on restart.
        late: bool,
        next: Option<NextStep>,
        /// A long round told in several posts: this is part `.0` of `.1`. Every part
        /// but the last carries only its share of the narration.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        part: Option<(u32, u32)>,
    },
    /// The status message: phase, deadline, and ✓ / … per seat.
    Status {
        race: CampaignId,
        game: GameKind,
        phase: Phase,
        label: String,
        deadline: Option<Millis>,
        seats: Vec<StatusSeat>,
    },
    /// A seat must act: its private view and legal choices.
    Prompt {
        race: CampaignId,
        game: GameKind,
        /// The step this prompt belongs to; an answer for another step is stale.
        step: u32,
        seat: Seat,
        seat_name: String,
        label: String,
        view: AnyPrivateView,
        prompt: Prompt,
        deadline: Option<Millis>,
        /// Private news since the last DM (a card drawn).
        notes: Vec<String>,
    },
    /// A seat's private view changed while it had nothing to decide.
    ViewUpdate {
        race: CampaignId,
        game: GameKind,
        seat: Seat,
        seat_name: String,
        view: AnyPrivateView,
        notes: Vec<String>,
    },
    /// A deadline is near and this seat's order is not in.
    Reminder {
        race: CampaignId,
        seat_name: String,
        label: String,
        deadline: Millis,
    },
    /// `nudge=`: in the channel, the seats still owing an order, each player mentioned
    /// (and only they may be pinged).
    Nudge {
        race: CampaignId,
        label: String,
        deadline: Millis,
        seats: Vec<NudgeSeat>,
    },
    /// The race is over: results, and the seed revealed.
    Finished {
        race: CampaignId,
        game: GameKind,
        view: AnyPublicView,
        placings: Vec<FinalPlace>,
        seed: String,
        commitment: String,
    },
    /// The host cancelled the race.
    Cancelled { race: CampaignId },
    /// A plain notice (paused, resumed, deadline moved, seat handed over...). In `text`,
    /// `{at}` stands for the moment `at` and `{user}` for a mention of `user`.
    Notice {
        race: CampaignId,
        text: String,
        #[serde(default)]
        at: Option<Millis>,
        #[serde(default)]
        user: Option<UserId>,
    },
    /// The host offers a seat to a member, who takes it with the post's Accept button.
    SeatOffer {
        race: CampaignId,
        seat: Seat,
        seat_name: String,
        user: UserId,
    },
}

/// A seat a nudge names, and its player.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct NudgeSeat {
    pub name: String,
    pub user: UserId,
}
