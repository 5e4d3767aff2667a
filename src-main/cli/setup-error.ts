/** Something to set up before the first message can go (a key, a folder, a conversation id): exit code 2. */
export class SetupError extends Error {}
