//! Small helpers shared by every layer (JSON text today). They name no game and no face, so any
//! module may use them.

pub mod json;
