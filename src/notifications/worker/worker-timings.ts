// How often the delivery worker polls, renews, samples and steps back, and how long it
// drains: tuned together, read in one place.
/** Longest the worker sleeps before looking for due deliveries again. */
export const POLL_MS = 1000;
/** How often the leases of deliveries being sent are extended. */
export const RENEW_MS = 3000;
/** The least lease a send may start with: a renewal within RENEW_MS, and as long again. */
export const START_MARGIN_MS = 2 * RENEW_MS;
/** Longest shutdown waits for sends in flight (a send gives up after 10 s). */
export const DRAIN_MS = 12_000;
/** How often the worker looks at how busy its process is. */
export const PRESSURE_SAMPLE_MS = 250;
/** Deliveries held (being sent or claimed ahead), as a multiple of the send slots. */
export const CLAIM_AHEAD = 6;
/** While the process is saturated: one batch (its concurrency) this often, none ahead. */
export const STEP_BACK_MS = 500;
