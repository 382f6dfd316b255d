//! A failing disk, in the soak: the page that holds one race's state is overwritten while
//! the bot is down, and given back at the end, as a repaired disk would, so the checks can
//! read every other row. The state is padded first so that it spills onto overflow pages
//! of its own, and no other race's rows share the damaged page.

use photofinish::vocab::CampaignId;

use super::world::World;
use crate::support::backend::{Arg, Kind};

/// A damaged page: where it is in the file and the bytes it held.
pub struct Damage {
    at: usize,
    was: Vec<u8>,
}

/// The first page of every overflow chain of `campaign_states`.
const CHAINS: &str = "SELECT pageno FROM dbstat WHERE name = 'campaign_states' \
     AND pagetype = 'overflow' AND path LIKE '%+000000' ORDER BY pageno";

/// Stops the bot, damages the first overflow page of race `id`'s state and starts the bot
/// again. `None` when it cannot be done here (not SQLite, a twin runs, or the state did
/// not spill onto a page of its own); nothing is harmed then.
pub async fn damage_page(w: &mut World, id: CampaignId) -> Option<Damage> {
    if w.db.kind != Kind::Sqlite || w.twin.is_some() {
        return None;
    }
    w.kill_bot().await;
    let raw = w.raw().await;
    let before = raw.column(CHAINS, vec![]).await;
    // 40,000 spaces after the JSON: it still decodes, and spills past any page size.
    raw.execute(
        "UPDATE campaign_states SET state = state || replace(hex(zeroblob(20000)), '0', ' ') \
         WHERE campaign_id = ?",
        vec![Arg::I(id.0)],
    )
    .await;
    let after = raw.column(CHAINS, vec![]).await;
    let size = raw.scalar("PRAGMA page_size", vec![]).await;
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)", vec![]).await;
    raw.close().await;
    let new: Vec<i64> = after.into_iter().filter(|p| !before.contains(p)).collect();
    let damage = match new.as_slice() {
        [page] => {
            let at = usize::try_from((page - 1) * size).ok()?;
            let mut bytes = std::fs::read(&w.db.url).ok()?;
            let header = bytes.get_mut(at..at + 12)?;
            let was = header.to_vec();
            // The next page's number and the start of the text: the chain leads nowhere.
            header.fill(0xee);
            std::fs::write(&w.db.url, &bytes).ok()?;
            Some(Damage { at, was })
        }
        _ => None,
    };
    w.start_bot().await;
    damage
}

/// Stops the bot, gives the damaged page back its bytes and starts the bot again.
pub async fn repair(w: &mut World, d: &Damage) {
    w.kill_bot().await;
    let raw = w.raw().await;
    raw.execute("PRAGMA wal_checkpoint(TRUNCATE)", vec![]).await;
    raw.close().await;
    let mut bytes = std::fs::read(&w.db.url).unwrap();
    bytes[d.at..d.at + d.was.len()].copy_from_slice(&d.was);
    std::fs::write(&w.db.url, &bytes).unwrap();
    w.start_bot().await;
}
