#!/usr/bin/env -S python3 -S
"""A random agent for cairn's seat protocol (docs/protocol.md).

Seat it with `cairn play RULESET --bot 2=exec:examples/agents/random_agent.py`
or `cairn sim RULESET --bots random,exec:examples/agents/random_agent.py`.

cairn writes one JSON object per line to this program's stdin. Each
"state" message with "your_turn": true asks for one answer line on stdout:
{"answer": "OPTION_ID"}; here an enabled option drawn at random. A "reply"
line comes only when an answer was refused (it says why); the game's last
state ("over": true) comes before stdin closes. Python 3 standard library
only: the first line runs python3 with -S (no site-packages), which starts
it faster and the same on every machine; an agent that imports installed
packages drops the -S.

The draws are seeded (--seed N, default 0) together with the seat and the
position of each decision, so the same game gives the same answers on every
run: `cairn sim` stays repeatable with this agent in a seat.

Options, for testing cairn itself:
  --seed N        the seed of the draws (default 0)
  --log FILE      append every line received to FILE
  --text          answer as typed at the console ({"text": "3"}, the option's
                  number) instead of by id
"""
import json
import random
import sys


def main(argv):
    seed = 0
    log = None
    text = False
    args = list(argv[1:])
    while args:
        a = args.pop(0)
        if a == "--seed" and args:
            seed = int(args.pop(0))
        elif a == "--log" and args:
            log = open(args.pop(0), "a", encoding="utf-8")
        elif a == "--text":
            text = True
        else:
            print(f"random_agent.py: unknown argument {a!r}", file=sys.stderr)
            return 2
    for line in sys.stdin:
        if log:
            log.write(line)
            log.flush()
        msg = json.loads(line)
        if msg.get("type") == "reply":
            print(f"random_agent.py: refused: {msg.get('error')}", file=sys.stderr)
            continue
        if msg.get("type") != "state" or not msg.get("your_turn"):
            continue
        options = [o for o in msg["question"]["options"] if o["enabled"]]
        # one stream per decision: the seed, the seat, the position
        rng = random.Random(f"{seed}/{msg['seat']}/{msg['position']}")
        pick = rng.choice(options)
        answer = {"text": str(pick["number"])} if text else {"answer": pick["id"]}
        sys.stdout.write(json.dumps(answer) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
