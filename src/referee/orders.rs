//! Orders and preferences: intake with receipts (an order again is a no-op), mentions
//! resolved to runners, and the open prompt for an in-channel order form.

use super::error::RefereeError;
use super::machine::{Referee, clean_text, require_in_play, require_open};
use super::work::{Work, new_nonce, receipt_for};
use crate::engine::{OrderError, Prompt, Seat};
use crate::games::AnyPrivateView;
use crate::store::{OrderRow, OrderSource, PreferenceRow};
use crate::vocab::{CampaignId, Millis, Phase, UserId};

/// What a player gets back for an accepted order.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Receipt {
    pub race: CampaignId,
    pub seat: Seat,
    pub seat_name: String,
    pub label: String,
    /// The order as the engine reads it.
    pub order: String,
    /// The public receipt: a hash of the order and a secret nonce.
    pub receipt: String,
    /// An earlier order for this step was replaced.
    pub changed: bool,
    /// The very same order was already in: nothing changed, and this is its receipt.
    pub repeated: bool,
    /// The step resolved at once (everyone was in).
    pub resolved: bool,
    /// The play is held in its grace window until then (`grace.rs`): it can still be
    /// changed or taken back.
    pub held_until: Option<Millis>,
    /// The race's grace window, in seconds (0: plays resolve at once).
    pub grace_secs: u64,
    /// The play in was taken back (`undo`): the seat has no order in now.
    pub taken_back: bool,
}

/// What a seat is being asked right now, for an in-channel order form.
#[derive(Clone, Debug, PartialEq)]
pub struct OpenPrompt {
    pub race: CampaignId,
    pub step: u32,
    pub seat: Seat,
    pub seat_name: String,
    pub label: String,
    pub view: AnyPrivateView,
    pub prompt: Prompt,
    pub deadline: Option<Millis>,
    /// The order already in for this step, if any.
    pub current: Option<String>,
}

impl Referee {
    /// Turns `<@id>` mentions into `@Name` for seated users.
    fn resolve_mentions(w: &Work, text: &str) -> Result<String, RefereeError> {
        let mut out = String::new();
        let mut rest = text;
        while let Some(start) = rest.find("<@") {
            out.push_str(&rest[..start]);
            let after = &rest[start + 2..];
            let Some(end) = after.find('>') else {
                out.push_str(&rest[start..]);
                rest = "";
                break;
            };
            let id = after[..end].trim_start_matches('!');
            if !id.is_empty() && id.chars().all(|c| c.is_ascii_digit()) {
                let user = UserId::new(id);
                let seat = w
                    .seat_of_user(&user)
                    .ok_or_else(|| RefereeError::Invalid(format!("<@{id}> isn't in this race")))?;
                out.push('@');
                out.push_str(&seat.name);
            } else {
                out.push_str(&rest[start..start + 2 + end + 1]);
            }
            rest = &after[end + 1..];
        }
        out.push_str(rest);
        Ok(out)
    }

    /// Accepts (or changes) a player's order for the open step, with a receipt.
    pub async fn submit(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
    ) -> Result<Receipt, RefereeError> {
        self.submit_for_step(id, user, text, None).await
    }

    /// Like [`Referee::submit`], for an order written at `written_at` (a DM's snowflake
    /// time): bound to the step that was open then, so a DM read late (after a restart or
    /// a gateway gap) never plays for a step that opened after it was written.
    pub async fn submit_written_at(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
        written_at: Millis,
    ) -> Result<Receipt, RefereeError> {
        let open = self.store.open_turn(id).await?;
        match open {
            Some((_, opened_at)) if written_at < opened_at => Err(RefereeError::WrittenBefore),
            Some((step, _)) => self.submit_for_step(id, user, text, Some(step)).await,
            None => self.submit_for_step(id, user, text, None).await,
        }
    }

    /// Like [`Referee::submit`], but refused as stale unless `step` is still open (a
    /// button pressed on an old prompt).
    pub async fn submit_for_step(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
        step: Option<u32>,
    ) -> Result<Receipt, RefereeError> {
        let raw_chars = text.chars().count();
        if raw_chars > self.config.max_order_chars {
            return Err(RefereeError::Invalid(format!(
                "that order is {raw_chars} characters long; orders are short, like `7` or `play 100`"
            )));
        }
        let text = clean_text(text);
        if text.is_empty() {
            return Err(RefereeError::Order(OrderError::Syntax(
                "the order is empty".into(),
            )));
        }
        self.mutate(id, |w| {
            require_in_play(w)?;
            let seat_row = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?.clone();
            if seat_row.bot.is_some() {
                return Err(RefereeError::SeatIsBot);
            }
            if step.is_some_and(|s| s != w.campaign.step) {
                return Err(RefereeError::StaleStep);
            }
            let seat = seat_row.seat;
            let text = Self::resolve_mentions(w, &text)?;
            let game = w.game()?.clone();
            let pending = game.pending();
            if !w.campaign.step_open || !pending.includes(seat) {
                return Err(RefereeError::Order(OrderError::NotYourTurn));
            }
            w.refuse_after_bank(seat)?;
            let grace_secs = super::grace::grace_secs(&w.campaign.timing);
            if super::grace::is_take_back(&text) {
                let taken = w
                    .orders
                    .iter()
                    .find(|o| o.seat == seat)
                    .map(|o| (o.text.clone(), o.receipt.clone()))
                    .unwrap_or_default();
                w.take_back(seat)?;
                return Ok(Receipt {
                    race: w.campaign.id,
                    seat,
                    seat_name: seat_row.name.clone(),
                    label: pending.label.clone(),
                    order: taken.0,
                    receipt: taken.1,
                    changed: true,
                    repeated: false,
                    resolved: false,
                    held_until: None,
                    grace_secs,
                    taken_back: true,
                });
            }
            let order = game.read_order(seat, &text)?;
            let canonical = game.format_order(seat, &order);
            // The same order again (a double click, a resent DM) changes nothing.
            if let Some(live) = w
                .orders
                .iter()
                .find(|o| o.seat == seat && o.source == OrderSource::Player && o.text == canonical)
            {
                return Ok(Receipt {
                    race: w.campaign.id,
                    seat,
                    seat_name: seat_row.name.clone(),
                    label: pending.label.clone(),
                    order: canonical,
                    receipt: live.receipt.clone(),
                    changed: false,
                    repeated: true,
                    resolved: false,
                    held_until: w.held_until()?,
                    grace_secs,
                    taken_back: false,
                });
            }
            let changed = w.orders.iter().any(|o| o.seat == seat);
            if changed {
                // A first order per step is never held back; changing it is paced, and
                // the seat keeps only the newest few of the orders it replaced.
                self.pace_action(user)?;
                let kept = self.config.limits.superseded_orders_kept;
                w.commit.superseded_kept = (kept > 0).then_some(kept);
            }
            let nonce = new_nonce()?;
            let step = w.campaign.step;
            let receipt = receipt_for(w.campaign.id.0, step, seat, &canonical, &nonce);
            w.put_order(OrderRow {
                step,
                seat,
                text: canonical.clone(),
                parsed: order,
                source: OrderSource::Player,
                nonce,
                receipt: receipt.clone(),
                by_user: Some(user.clone()),
                submitted_at: w.now,
            });
            w.touch();
            // A running race's `advance` ends by telling the status (`tell`, or the
            // finish); built here too it was built twice per order.
            if w.campaign.phase != Phase::Running {
                w.say_status();
            }
            w.advance()?;
            let resolved = w.campaign.step != step;
            let held_until = if resolved { None } else { w.held_until()? };
            Ok(Receipt {
                race: w.campaign.id,
                seat,
                seat_name: seat_row.name.clone(),
                label: pending.label.clone(),
                order: canonical,
                receipt,
                changed,
                repeated: false,
                resolved,
                held_until,
                grace_secs,
                taken_back: false,
            })
        })
        .await
    }

    /// Sets a standing preference for the user's seat (a policy, a setting).
    pub async fn set_preference(
        &self,
        id: CampaignId,
        user: &UserId,
        text: &str,
    ) -> Result<String, RefereeError> {
        let text = clean_text(text);
        if text.chars().count() > self.config.max_order_chars {
            return Err(RefereeError::Invalid("that setting is too long".into()));
        }
        self.pace_action(user)?;
        let max = self.config.limits.preferences_per_seat;
        let stored = if max > 0 {
            self.store.preferences(id).await?
        } else {
            Vec::new()
        };
        self.mutate(id, |w| {
            require_open(w)?;
            let seat = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?.seat;
            let mine = stored.iter().filter(|p| p.seat == seat).count();
            if max > 0 && mine >= usize::try_from(max).unwrap_or(usize::MAX) {
                return Err(RefereeError::Quota(format!(
                    "your seat has set {mine} preferences in this race, the most one seat may"
                )));
            }
            let step = w.campaign.step;
            let now = w.now;
            let answer = match w.campaign.state.as_mut() {
                Some(game) => {
                    let answer = game.set_preference(seat, &text)?;
                    w.touch_state();
                    answer
                }
                None => {
                    if w.campaign.kind.preference_help().is_none() {
                        return Err(RefereeError::Preference(
                            crate::engine::PreferenceError::NotSupported,
                        ));
                    }
                    format!("noted: `{text}` applies when the race starts")
                }
            };
            w.commit.preferences.push(PreferenceRow {
                step,
                seat,
                text: text.clone(),
                set_at: now,
            });
            w.touch();
            Ok(answer)
        })
        .await
    }

    /// What the user's seat is asked now, if anything (for `/race order`).
    pub async fn open_prompt(
        &self,
        id: CampaignId,
        user: &UserId,
    ) -> Result<OpenPrompt, RefereeError> {
        let w = self.read(id).await?;
        require_in_play(&w)?;
        let seat_row = w.seat_of_user(user).ok_or(RefereeError::NotSeated)?;
        if seat_row.bot.is_some() {
            return Err(RefereeError::SeatIsBot);
        }
        let game = w.game()?;
        let pending = game.pending();
        if !w.campaign.step_open || !pending.includes(seat_row.seat) {
            return Err(RefereeError::Order(OrderError::NotYourTurn));
        }
        Ok(OpenPrompt {
            race: id,
            step: w.campaign.step,
            seat: seat_row.seat,
            seat_name: seat_row.name.clone(),
            label: pending.label.clone(),
            view: game.private_view(seat_row.seat),
            prompt: game.prompt(seat_row.seat),
            deadline: w.seat_due(seat_row.seat).or(w.campaign.deadline_at),
            current: w
                .orders
                .iter()
                .find(|o| o.seat == seat_row.seat)
                .map(|o| o.text.clone()),
        })
    }
}
