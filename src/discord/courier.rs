//! Delivers the referee's outbox to Discord: channel posts, the status and lobby messages
//! edited in place, and DMs. Each new message carries its outbox id as a `nonce` with
//! `enforce_nonce`, so a redelivery soon after a crash (posted, but not yet marked
//! delivered) returns the first message instead of posting twice. Discord forgets a nonce
//! after a few minutes, and does not show it in a channel's history, so each message also
//! carries its outbox id in its first embed's footer ([`mark`]: `ref 123`), and
//! [`Courier::find`] reads the channel's (or DM's) recent messages for it before a create
//! whose earlier attempt ended unknown goes out again.
//!
//! A turn's post and the final result each carry one PNG (see [`attach`]) in the same
//! multipart request, shown as the embed's image, with the standings as its alt text.
//!
//! Discord's answers become [`DeliveryError`]s: 50007 is a closed DM, 429 and 5xx (and a
//! lost connection, or no answer within the client's timeout) are retried with backoff, an edited message that is gone is posted
//! again, a channel that is gone (10003) or forbidden (50013) pauses the race, a post
//! refused for its picture (50013 without Attach Files) goes again as text, and anything
//! else is given up and logged.
//!
//! Each REST call goes through [`timed`] (`rest.rs`), which records its latency and
//! errors.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use crate::referee::when::Zone;
use async_trait::async_trait;
use poise::serenity_prelude as serenity;
use serenity::{ChannelId, Http, MessageId};

use super::dm::DmChannels;
use super::dress;
use super::layout::{self, Layout};
use super::rest::timed;
use crate::referee::announce::{Announcement, Target};
use crate::referee::delivery::{Courier, Delivered, DeliveryError, Parcel};
use crate::render::post;

/// Discord's JSON error codes the bot acts on.
pub mod codes {
    pub const UNKNOWN_CHANNEL: isize = 10003;
    pub const UNKNOWN_MESSAGE: isize = 10008;
    pub const UNKNOWN_WEBHOOK: isize = 10015;
    pub const INVALID_WEBHOOK_TOKEN: isize = 50027;
    pub const CANNOT_DM: isize = 50007;
    pub const REQUEST_TOO_LARGE: isize = 40005;
    pub const MISSING_ACCESS: isize = 50001;
    pub const MISSING_PERMISSIONS: isize = 50013;
    pub const THREAD_ARCHIVED: isize = 50083;
}

/// The outbox's way to Discord.
pub struct DiscordCourier {
    http: Arc<Http>,
    zone: Zone,
    /// DM channels opened so far: one request per user per run, not per DM.
    dms: DmChannels,
    /// The bot's own user id, once asked: only its messages can carry a marker.
    me: Mutex<Option<u64>>,
    /// Where delivered prompts are found, to close them when their step resolves
    /// (`stale`); without it, old prompts keep their buttons (and answer `STALE`).
    store: Option<Arc<dyn crate::store::Store>>,
    /// For the final post's extras (series standings, the race's animation), which read
    /// the store: see [`DiscordCourier::with_referee`].
    referee: Option<Arc<crate::referee::Referee>>,
    /// Whether the final post carries the race's animation (configuration `animation`).
    animation: bool,
    /// The longest [`DiscordCourier::probe`] waits for its answer.
    probe_timeout: Duration,
}

/// The longest a probe waits: a sign of life that takes longer is none.
pub const PROBE_TIMEOUT: Duration = Duration::from_secs(10);

/// Messages read per page of history when looking for an earlier attempt.
const HISTORY_PAGE: u8 = 100;
/// Pages read at most: the marker is looked for among the newest 1,000 messages.
const HISTORY_PAGES: usize = 10;
/// How far before the first attempt the search reaches (clocks differ).
const HISTORY_SLACK_MS: i64 = 600_000;
/// Discord's epoch, in Unix milliseconds: a snowflake's time is counted from it.
const DISCORD_EPOCH_MS: i64 = 1_420_070_400_000;

/// The marker an outbox row's message carries, at the end of its first embed's footer.
fn marker(outbox_id: i64) -> String {
    format!("ref {outbox_id}")
}

/// Marks a message with its outbox id, quietly: ` · ref 123` after its first embed's
/// footer (or the footer alone), within Discord's limits (the footer's own text gives way).
pub fn mark(layout: &mut Layout, outbox_id: i64) {
    let tag = marker(outbox_id);
    let total: usize = layout.embeds.iter().map(layout::EmbedSpec::size).sum();
    let Some(first) = layout.embeds.first_mut() else {
        return;
    };
    let own = first.footer.take().unwrap_or_default();
    let own_chars = own.chars().count();
    let others = total.saturating_sub(own_chars);
    if others.saturating_add(tag.chars().count()) > layout::limits::EMBED_TOTAL {
        // A message already at Discord's limit goes unmarked (its nonce still guards a
        // quick retry) rather than be refused.
        first.footer = (!own.is_empty()).then_some(own);
        return;
    }
    // Room for the footer's own text: the footer limit, and the message's total.
    let room = layout::limits::FOOTER
        .min(layout::limits::EMBED_TOTAL.saturating_sub(others))
        .saturating_sub(tag.chars().count() + 3);
    first.footer = Some(if own.is_empty() || room == 0 {
        tag
    } else if own_chars > room {
        let cut: String = own.chars().take(room.saturating_sub(1)).collect();
        format!("{cut}… · {tag}")
    } else {
        format!("{own} · {tag}")
    });
}

/// True when a message's first embed carries this outbox id's marker.
fn carries(message: &serenity::Message, outbox_id: i64) -> bool {
    let tag = marker(outbox_id);
    message
        .embeds
        .first()
        .and_then(|e| e.footer.as_ref())
        .is_some_and(|f| f.text == tag || f.text.ends_with(&format!(" · {tag}")))
}

/// A snowflake's time, in Unix milliseconds.
fn snowflake_ms(id: u64) -> i64 {
    i64::try_from(id >> 22)
        .unwrap_or(i64::MAX)
        .saturating_add(DISCORD_EPOCH_MS)
}

/// Reads a Discord error the way the outbox needs it.
pub fn classify(error: &serenity::Error) -> DeliveryError {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => {
            let status = resp.status_code.as_u16();
            let code = resp.error.code;
            let reason = format!("{status} {code}: {}", resp.error.message);
            if code == codes::CANNOT_DM {
                DeliveryError::DmClosed
            } else if status == 429 || status >= 500 || status == 408 {
                // serenity's error keeps neither the retry-after header nor the body's
                // `retry_after`; the outbox's backoff (1 s, doubling) stands in for it.
                DeliveryError::Retry {
                    after_ms: 0,
                    reason,
                }
            } else if code == codes::UNKNOWN_MESSAGE {
                DeliveryError::Gone
            } else if matches!(
                code,
                codes::UNKNOWN_CHANNEL | codes::MISSING_PERMISSIONS | codes::MISSING_ACCESS
            ) {
                DeliveryError::ChannelLost {
                    gone: code == codes::UNKNOWN_CHANNEL,
                    reason,
                }
            } else if status == 401 || (matches!(status, 403 | 404) && code == 0) {
                // The bot's own token or route, not this post: it may heal, so nothing is
                // given up. A 403 or 404 with Discord's code is about the post.
                DeliveryError::Refused(format!(
                    "Discord refused the bot itself ({reason}): check its token, and any proxy in front of Discord"
                ))
            } else {
                DeliveryError::Permanent(reason)
            }
        }
        // An answer that cannot be read may still have landed: the next attempt looks for
        // it by its marker before posting again.
        serenity::Error::Json(e) => DeliveryError::Retry {
            after_ms: 0,
            reason: format!("Discord's answer could not be read: {e}"),
        },
        // No answer within the client's timeout: the request may have landed, so it is
        // retried as a lost answer is, looked for by its marker before it goes again.
        serenity::Error::Http(HttpError::Request(_)) if super::rest::timed_out(error) => {
            DeliveryError::Retry {
                after_ms: 0,
                reason: format!(
                    "no answer from Discord in time, so it may have landed: {}",
                    super::rest::cause(error)
                ),
            }
        }
        serenity::Error::Http(HttpError::Request(_)) => DeliveryError::Retry {
            after_ms: 0,
            reason: format!("no answer from Discord: {}", super::rest::cause(error)),
        },
        serenity::Error::Io(e) => DeliveryError::Retry {
            after_ms: 0,
            reason: e.to_string(),
        },
        other => DeliveryError::Permanent(other.to_string()),
    }
}

/// True when Discord refused a post for its attachment: no Attach Files permission, or
/// an upload over the limit (413, code 40005).
fn too_much_to_attach(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => {
            resp.status_code.as_u16() == 413
                || matches!(
                    resp.error.code,
                    codes::MISSING_PERMISSIONS | codes::REQUEST_TOO_LARGE
                )
        }
        _ => false,
    }
}

/// Discord's JSON error code, when it answered with one.
fn code_of(error: &serenity::Error) -> Option<isize> {
    use serenity::http::HttpError;
    match error {
        serenity::Error::Http(HttpError::UnsuccessfulRequest(resp)) => Some(resp.error.code),
        _ => None,
    }
}

/// True when Discord refuses an interaction's token: it expired (15 minutes after the
/// interaction) or its webhook is gone.
pub fn is_token_expired(error: &serenity::Error) -> bool {
    use serenity::http::HttpError;
    matches!(error, serenity::Error::Http(HttpError::UnsuccessfulRequest(resp))
        if resp.error.code == codes::INVALID_WEBHOOK_TOKEN
            || resp.error.code == codes::UNKNOWN_WEBHOOK)
}

/// True when Discord says this user takes no DMs from the bot.
pub fn is_dm_closed(error: &serenity::Error) -> bool {
    classify(error) == DeliveryError::DmClosed
}

/// Draws a post's picture (the track after a turn, the race chart with the result) and
/// attaches it, so it goes up in the same request as the post. Drawing is deterministic,
/// so a redelivery uploads the same picture under the same nonce and still posts once.
/// A picture that cannot be drawn costs the post nothing: the text track goes alone.
async fn attach(layout: &mut Layout, announcement: &Announcement, outbox_id: i64) {
    let Some((kind, view)) = post::picture_of(announcement) else {
        return;
    };
    let view = view.clone();
    // Drawing is CPU work of a few milliseconds: keep it off the async workers.
    let drawn = tokio::task::spawn_blocking(move || post::draw_picture(kind, &view)).await;
    match drawn {
        Ok(Ok((png, alt))) if png.len() <= layout::limits::UPLOAD_BYTES => {
            layout::attach_picture(layout, layout::picture_name(announcement), png, &alt);
        }
        Ok(Ok((png, _))) => tracing::warn!(
            outbox_id,
            bytes = png.len(),
            "the picture is over Discord's upload limit; posting the text track alone"
        ),
        Ok(Err(e)) => tracing::warn!(
            outbox_id,
            error = %e,
            "no picture for this post; posting the text track alone"
        ),
        Err(e) => tracing::error!(
            outbox_id,
            error = %e,
            "drawing the picture failed; posting the text track alone"
        ),
    }
}

fn snowflake(text: &str) -> Option<u64> {
    text.trim().parse::<u64>().ok().filter(|n| *n != 0)
}

impl DiscordCourier {
    pub fn new(http: Arc<Http>, zone: impl Into<Zone>) -> DiscordCourier {
        let zone = zone.into();
        DiscordCourier {
            http,
            zone,
            dms: DmChannels::default(),
            me: Mutex::new(None),
            store: None,
            referee: None,
            animation: true,
            probe_timeout: PROBE_TIMEOUT,
        }
    }

    /// Waits at most `timeout` for a probe's answer ([`PROBE_TIMEOUT`] unless set).
    #[must_use]
    pub fn with_probe_timeout(mut self, timeout: Duration) -> DiscordCourier {
        self.probe_timeout = timeout;
        self
    }

    /// Turns the final post's animation on or off (configuration key `animation`).
    #[must_use]
    pub fn with_animation(mut self, on: bool) -> DiscordCourier {
        self.animation = on;
        self
    }

    /// Closes resolved steps' DM prompts, finding them in this store's outbox.
    pub fn with_store(mut self, store: Arc<dyn crate::store::Store>) -> DiscordCourier {
        self.store = Some(store);
        self
    }

    /// Lets the final post carry the series standings and the race's animation.
    #[must_use]
    pub fn with_referee(mut self, referee: Arc<crate::referee::Referee>) -> DiscordCourier {
        self.referee = Some(referee);
        self
    }

    /// The bot's own user id, asked of Discord once.
    async fn me(&self) -> Result<u64, serenity::Error> {
        if let Ok(me) = self.me.lock()
            && let Some(id) = *me
        {
            return Ok(id);
        }
        let id = timed("get_current_user", self.http.get_current_user())
            .await?
            .id
            .get();
        if let Ok(mut me) = self.me.lock() {
            *me = Some(id);
        }
        Ok(id)
    }

    /// True when Discord answers a cheap REST call within the probe's timeout: a sign of
    /// life for the outage hold when no shard is connected. No answer in time is none.
    pub async fn probe(&self) -> bool {
        let asked = timed("get_current_user", self.http.get_current_user());
        let Ok(answered) = tokio::time::timeout(self.probe_timeout, asked).await else {
            tracing::debug!(
                timeout_ms = self.probe_timeout.as_millis(),
                "no answer to the probe in time: no sign of life"
            );
            return false;
        };
        match answered {
            Ok(user) => {
                if let Ok(mut me) = self.me.lock() {
                    *me = Some(user.id.get());
                }
                true
            }
            // Any answer but a server error or none is Discord answering.
            Err(e) => !matches!(
                classify(&e),
                DeliveryError::Retry { .. } | DeliveryError::Refused(_)
            ),
        }
    }

    /// The channel a parcel goes to: the race's channel, or the seat's DM channel.
    async fn channel_of(&self, parcel: &Parcel<'_>) -> Result<ChannelId, DeliveryError> {
        match parcel.target {
            Target::Dm { user, .. } => {
                let user = snowflake(&user.0).ok_or_else(|| {
                    DeliveryError::Permanent(format!("`{}` is not a Discord user", user.0))
                })?;
                self.dm_channel(user).await.map_err(|e| classify(&e))
            }
            _ => snowflake(parcel.channel)
                .map(ChannelId::new)
                .ok_or_else(|| {
                    DeliveryError::Permanent(format!(
                        "`{}` is not a Discord channel",
                        parcel.channel
                    ))
                }),
        }
    }

    /// Reads a channel's messages from the newest back to `since` (less some slack), at
    /// most [`HISTORY_PAGES`] pages, for the bot's message marked with `outbox_id`.
    async fn look_back(
        &self,
        channel: ChannelId,
        outbox_id: i64,
        since: i64,
    ) -> Result<Option<MessageId>, serenity::Error> {
        let me = self.me().await?;
        let floor = since.saturating_sub(HISTORY_SLACK_MS);
        let mut before: Option<MessageId> = None;
        for _ in 0..HISTORY_PAGES {
            let mut ask = serenity::GetMessages::new().limit(HISTORY_PAGE);
            if let Some(b) = before {
                ask = ask.before(b);
            }
            let page = timed("get_messages", channel.messages(&*self.http, ask)).await?;
            if let Some(found) = page
                .iter()
                .find(|m| m.author.id.get() == me && carries(m, outbox_id))
            {
                return Ok(Some(found.id));
            }
            let Some(oldest) = page.iter().map(|m| m.id).min() else {
                return Ok(None);
            };
            if page.len() < usize::from(HISTORY_PAGE) || snowflake_ms(oldest.get()) < floor {
                return Ok(None);
            }
            before = Some(oldest);
        }
        Ok(None)
    }

    /// The DM channel with a user, opened once and remembered.
    pub async fn dm_channel(&self, user: u64) -> Result<ChannelId, serenity::Error> {
        self.dms.open(&self.http, user).await
    }

    async fn post(
        &self,
        channel: ChannelId,
        layout: &Layout,
        nonce: i64,
    ) -> Result<Delivered, DeliveryError> {
        let dressed = |layout: &Layout| {
            dress::create_message(layout)
                .nonce(serenity::Nonce::Number(u64::try_from(nonce).unwrap_or(0)))
                .enforce_nonce(true)
        };
        let sent = match timed(
            "create_message",
            channel.send_message(&*self.http, dressed(layout)),
        )
        .await
        {
            Ok(sent) => sent,
            Err(e) if !layout.files.is_empty() && too_much_to_attach(&e) => {
                // The bot may not attach files here (a moderator took Attach Files), or
                // the upload is over the channel's limit: the post goes as text, its
                // picture dropped, rather than not at all.
                tracing::warn!(
                    channel = channel.get(),
                    "cannot attach the picture here ({e}); posting the text alone"
                );
                let mut bare = layout.clone();
                layout::drop_picture(&mut bare);
                timed(
                    "create_message",
                    channel.send_message(&*self.http, dressed(&bare)),
                )
                .await
                .map_err(|e| classify(&e))?
            }
            Err(e) => return Err(classify(&e)),
        };
        Ok(Delivered {
            external_id: Some(sent.id.get().to_string()),
        })
    }
}

#[async_trait]
impl Courier for DiscordCourier {
    async fn find(
        &self,
        parcel: Parcel<'_>,
        since: i64,
    ) -> Result<Option<Delivered>, DeliveryError> {
        let channel = self.channel_of(&parcel).await?;
        let found = match self.look_back(channel, parcel.outbox_id, since).await {
            Ok(found) => found,
            Err(e) if code_of(&e) == Some(codes::MISSING_PERMISSIONS) => {
                // Without Read Message History the bot cannot look; the nonce is all
                // that is left, as before.
                tracing::warn!(
                    channel = channel.get(),
                    outbox = parcel.outbox_id,
                    "cannot read this channel's history (Read Message History); posting again \
                     relies on Discord's nonce alone"
                );
                None
            }
            Err(e) => {
                return Err(match (classify(&e), parcel.target) {
                    // A DM that fails is the player's, never the race channel's.
                    (DeliveryError::ChannelLost { reason, .. }, Target::Dm { .. }) => {
                        DeliveryError::Permanent(reason)
                    }
                    (other, _) => other,
                });
            }
        };
        Ok(found.map(|id| Delivered {
            external_id: Some(id.get().to_string()),
        }))
    }

    async fn deliver(&self, parcel: Parcel<'_>) -> Result<Delivered, DeliveryError> {
        let mut layout = layout::announcement(parcel.announcement, self.zone);
        mark(&mut layout, parcel.outbox_id);
        if layout.picture.is_some() && !matches!(parcel.target, Target::Dm { .. }) {
            attach(&mut layout, parcel.announcement, parcel.outbox_id).await;
        }
        if let (Announcement::Finished { race, .. }, Some(referee), Target::Channel) =
            (parcel.announcement, &self.referee, parcel.target)
        {
            super::final_post::dress_final(&mut layout, referee, *race, self.animation).await;
        }
        match parcel.target {
            Target::Dm { user, .. } => {
                let user = snowflake(&user.0).ok_or_else(|| {
                    DeliveryError::Permanent(format!("`{}` is not a Discord user", user.0))
                })?;
                let channel = self.dm_channel(user).await.map_err(|e| classify(&e))?;
                // A DM that fails is the player's, never the race channel's.
                self.post(channel, &layout, parcel.outbox_id)
                    .await
                    .map_err(|e| match e {
                        DeliveryError::ChannelLost { reason, .. } => {
                            DeliveryError::Permanent(reason)
                        }
                        other => other,
                    })
            }
            target => {
                let channel = snowflake(parcel.channel)
                    .map(ChannelId::new)
                    .ok_or_else(|| {
                        DeliveryError::Permanent(format!(
                            "`{}` is not a Discord channel",
                            parcel.channel
                        ))
                    })?;
                match parcel
                    .edit
                    .filter(|_| layout::edited_in_place(target))
                    .and_then(snowflake)
                {
                    Some(message) => {
                        let edit = || {
                            timed(
                                "edit_message",
                                channel.edit_message(
                                    &*self.http,
                                    MessageId::new(message),
                                    dress::edit_message(&layout),
                                ),
                            )
                        };
                        let edited = match edit().await {
                            Err(e) if code_of(&e) == Some(codes::THREAD_ARCHIVED) => {
                                // A race thread Discord archived for inactivity: unarchive
                                // it, then edit.
                                timed(
                                    "edit_thread",
                                    channel.edit_thread(
                                        &*self.http,
                                        serenity::EditThread::new().archived(false),
                                    ),
                                )
                                .await
                                .map_err(|e| classify(&e))?;
                                edit().await
                            }
                            other => other,
                        }
                        .map_err(|e| classify(&e))?;
                        Ok(Delivered {
                            external_id: Some(edited.id.get().to_string()),
                        })
                    }
                    None => {
                        let posted = self.post(channel, &layout, parcel.outbox_id).await?;
                        match (parcel.announcement, &self.store) {
                            (Announcement::TurnResolved { revealed, .. }, Some(store)) => {
                                super::stale::close_prompts(
                                    &self.dms,
                                    &self.http,
                                    &**store,
                                    parcel.race,
                                    parcel.outbox_id,
                                    revealed,
                                )
                                .await;
                            }
                            (Announcement::Cancelled { .. }, Some(store)) => {
                                super::stale::close_cancelled(
                                    &self.dms,
                                    &self.http,
                                    &**store,
                                    parcel.race,
                                    parcel.outbox_id,
                                )
                                .await;
                            }
                            _ => {}
                        }
                        Ok(posted)
                    }
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::discord::layout::{EmbedSpec, limits};
    use ::serenity::http::{ErrorResponse, HttpError};

    fn one(description: usize, footer: Option<&str>) -> Layout {
        Layout {
            embeds: vec![EmbedSpec {
                title: "t".into(),
                description: "d".repeat(description),
                footer: footer.map(String::from),
                ..EmbedSpec::default()
            }],
            ..Layout::default()
        }
    }

    #[test]
    fn the_marker_follows_the_footer_within_every_limit() {
        let mut l = one(10, Some("Due Thu 01 Jan 00:00 UTC."));
        mark(&mut l, 42);
        assert_eq!(
            l.embeds[0].footer.as_deref(),
            Some("Due Thu 01 Jan 00:00 UTC. · ref 42")
        );
        let mut l = one(10, None);
        mark(&mut l, 7);
        assert_eq!(l.embeds[0].footer.as_deref(), Some("ref 7"));
        // A message at the total limit: the footer's own text gives way.
        let mut l = one(limits::EMBED_TOTAL - 40, Some(&"f".repeat(38)));
        mark(&mut l, 123);
        let size: usize = l.embeds.iter().map(EmbedSpec::size).sum();
        assert!(size <= limits::EMBED_TOTAL, "{size}");
        assert!(
            l.embeds[0]
                .footer
                .as_deref()
                .unwrap()
                .ends_with(" · ref 123")
        );
        // No room at all: unmarked, never over the limit.
        let mut l = one(limits::EMBED_TOTAL - 1, None);
        mark(&mut l, 123);
        assert_eq!(l.embeds[0].footer, None);
    }

    /// Discord's answer as serenity reads it off the wire.
    async fn refused(status: u16, code: isize) -> serenity::Error {
        let body = serde_json::json!({ "code": code, "message": "refused" }).to_string();
        let answer = axum::http::Response::builder()
            .status(status)
            .body(body)
            .unwrap();
        let method = ::serenity::http::LightMethod::Post.reqwest_method();
        let read = ErrorResponse::from_response(reqwest::Response::from(answer), method).await;
        serenity::Error::Http(HttpError::UnsuccessfulRequest(read))
    }

    /// Only what can never land is given up: the bot's own token or route (401, or a 403
    /// or 404 that carries no Discord code, as from a misrouted proxy) is refused and
    /// kept; a timeout (408) is tried again; a 403 or 404 with Discord's code is the post's
    /// own.
    #[tokio::test]
    async fn a_failure_is_judged_by_discord_s_code_and_only_the_hopeless_given_up() {
        let class = |e: &serenity::Error| match classify(e) {
            DeliveryError::Retry { .. } => "retry",
            DeliveryError::Refused(_) => "refused",
            DeliveryError::DmClosed => "dm closed",
            DeliveryError::Gone => "gone",
            DeliveryError::ChannelLost { gone: true, .. } => "channel gone",
            DeliveryError::ChannelLost { gone: false, .. } => "channel barred",
            DeliveryError::Permanent(_) => "given up",
        };
        for (status, code, expected) in [
            (401, 0, "refused"),
            (403, 0, "refused"),
            (404, 0, "refused"),
            (408, 0, "retry"),
            (429, 0, "retry"),
            (500, 0, "retry"),
            (503, 0, "retry"),
            (403, 50007, "dm closed"),
            (404, 10008, "gone"),
            (404, 10003, "channel gone"),
            (403, 50013, "channel barred"),
            (403, 50001, "channel barred"),
            (400, 50035, "given up"),
            (413, 40005, "given up"),
        ] {
            let e = refused(status, code).await;
            assert_eq!(class(&e), expected, "{status} {code}");
        }
        let unreadable = serde_json::from_str::<serde_json::Value>("<html>").unwrap_err();
        assert_eq!(class(&serenity::Error::Json(unreadable)), "retry");
    }

    #[tokio::test]
    async fn a_discord_error_is_counted_under_its_status_and_code() {
        let closed = refused(403, 50007).await;
        // The same error the outbox classifies as a closed DM.
        assert_eq!(classify(&closed), DeliveryError::DmClosed);
        assert_eq!(
            crate::discord::rest::error_labels(&closed),
            ("403".into(), "50007".into())
        );
        let busy = refused(429, 0).await;
        let recorder = metrics_exporter_prometheus::PrometheusBuilder::new().build_recorder();
        let handle = recorder.handle();
        metrics::with_local_recorder(&recorder, || {
            crate::discord::rest::count_error(&closed);
            crate::discord::rest::count_error(&closed);
            crate::discord::rest::count_error(&busy);
        });
        let text = handle.render();
        assert!(
            text.contains(r#"photofinish_discord_errors_total{status="403",code="50007"} 2"#),
            "{text}"
        );
        assert!(
            text.contains(r#"photofinish_discord_errors_total{status="429",code="none"} 1"#),
            "{text}"
        );
    }
}
