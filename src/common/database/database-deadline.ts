/** Deadline for opening a connection and for each query on MySQL, in milliseconds. */
export const DB_DEADLINE_MS = 5000;
