// What `oi --help` prints. This file imports nothing: the answer must come back as fast as Node
// starts (docs/cli.md, bench/startup.bench.ts); `oi --version` answers from core/app-version.ts.

export const HELP = `oi — Open Interpreter in the terminal: chat with a model that writes and runs code on this machine.

Usage:
  oi                         interactive chat (type %help inside for commands)
  oi "do this"               chat, starting with this message (without a terminal: like -m)
  oi -m "message"            one message, then exit when the agent is done
  echo "message" | oi -y     the message from standard input (also: oi -m -)
  oi -c                      continue the last conversation
  oi --list                  list saved conversations
  oi mcp                     serve the sessions to other agents over MCP (oi mcp --help; docs/mcp.md)
  oi acp                     the agent for editors over the Agent Client Protocol (oi acp --help; docs/acp.md)
  oi -m "…" -y --background  run it detached; prints its id (docs/cli.md#background-runs)
  oi ps                      background runs, running and finished
  oi attach <id>             follow a background run's output to its end
  oi stop <id>               stop a background run as Ctrl-C would
  oi schedule …              tasks that run on their own: add, list, remove, run (oi schedule; docs/schedules.md)
  oi skills install <path>   install a skill from its folder or a .zip of it (docs/agent.md#skills)
  oi trust <folder>          use that folder's (its repository's) AGENTS.md, skills, hooks and commands

Options:
  -m, --message <text>       send one message and exit; "-" reads it from standard input
  -y, --auto-run             run code without asking
      --computer             let the model see the screen and use the mouse and keyboard (X11;
                             each action asked; screenshots saved to files; docs/computer-use.md)
      --sandbox              run code in the sandbox, refusing to run it if the sandbox cannot start
      --no-sandbox           run code without the sandbox (it is on by default where it works)
      --plan                 plan mode: code runs read-only until you approve the model's plan (/plan switches)
      --profile NAME         the settings of <data folder>/profiles/NAME.json (model, instructions, auto-run, sandbox, hooks); flags go on top
  -c, --continue             continue the last conversation
      --conversation <id>    continue a saved conversation (an id from --list, or its first characters)
      --workspace <dir>      folder the code runs in, made if missing (default: the current folder)
      --own-folder           run code in a new folder of this conversation's own, in the data folder
      --provider <name>      openai | anthropic | ollama | openai-compatible
      --model <name>         model to use (for example gpt-4.1, claude-sonnet-4-6, qwen2.5-coder:7b)
      --base-url <url>       OpenAI-compatible endpoint (LM Studio, vLLM, llama.cpp, OpenRouter…) or another Ollama
      --notebook <file>      start from a Jupyter notebook (.ipynb), imported as a new conversation
      --json                 one JSON event per line (the app's own events), then a "result" event
  -h, --help                 show this help
  -v, --version              print the version

At the prompt: %help lists commands; !command (or %% command) runs a shell command here; /plan switches plan mode.
Exit codes: 0 done, 1 the turn failed, 2 bad options or setup, 3 code was declined (no terminal to
ask and no -y), 129 the terminal closed, 130 stopped by Ctrl-C.

Keys come from the OS keychain or the environment: OPENAI_API_KEY, ANTHROPIC_API_KEY,
OPENAI_COMPATIBLE_API_KEY, OPENROUTER_API_KEY, GROQ_API_KEY… In a terminal, oi asks for a missing
key and stores it in the keychain. Conversations and settings are shared with the desktop app (folder:
OI_DATA_DIR, or the app's data folder).`;
