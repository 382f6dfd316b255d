//! Why a picture could not be drawn ([`RenderError`]).

use thiserror::Error;

/// Why a picture could not be drawn. The referee posts the text track alone then.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum RenderError {
    #[error("there are no pictures for this game yet")]
    NoPicture,
    #[error("there is nobody in the race to draw")]
    NoRunners,
    #[error("the view cannot be drawn: {0}")]
    Damaged(&'static str),
    #[error("the picture would be {width}×{height} pixels, which is too large to draw")]
    TooLarge { width: u32, height: u32 },
    #[error("the bundled font could not be read")]
    Font,
    #[error("the picture could not be saved as PNG: {0}")]
    Encode(String),
}
