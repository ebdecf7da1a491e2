// Placeholder until the target is written.
