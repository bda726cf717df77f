// The points of a hand kept on this phone (outbox.js) while it waits to be sent, for the
// board's provisional totals. Each game's quick entry has a shape here (its GameRules'
// provisional, never its name), a few lines saying which seat (or side) gains what from the
// numbers typed; every number in it (bonuses, the penalty,
// the tie rule, the doubling) comes from the page, which the server worked out by scoring
// sample entries with the engine itself (games/pages/provisional.py). A table without a
// model, or an entry by cards, gives null: the hand is shown pending, without a number.
// The server's answer replaces all of it once the hand is stored.
(function () {
  "use strict";

  function number(value) {
    if (value === undefined || value === null || String(value).trim() === "") return null;
    const parsed = Number(value);
    return Number.isInteger(parsed) && parsed >= 0 ? parsed : null;
  }

  const SHAPES = {
    // The difference of two counts after a knock (GIN-SCORE-KNOCK, GIN-UNDERCUT), or a way
    // out's bonus and the defender's count (GIN-SCORE-GIN), entered as the two counts.
    knock_difference(model, fields) {
      if (fields.mode !== "quick") return null;
      if (fields.ending === "wall") return [0, 0];
      const knocker = number(fields.knocker);
      const d = number(fields.defender_count);
      const k = fields.ending === "knock" ? number(fields.knocker_count) : 0;
      if (knocker === null || knocker > 1 || d === null || k === null) return null;
      const points = [0, 0];
      // Any way out but a knock scores its bonus and the defender's count (the page names
      // the ways the table offers); a knock keeping nothing scores as the engine says.
      if (Object.hasOwn(model.outs, fields.ending)) {
        points[knocker] = model.outs[fields.ending] + d;
      } else if (fields.ending !== "knock") {
        return null;
      } else if (k === 0) {
        points[knocker] = model.clean_knock + d;
      } else if (k < d) {
        points[knocker] = d - k;
      } else if (d < k || model.undercut_on_tie) {
        points[1 - knocker] = k - d + model.undercut;
      }
      return points;
    },
    // Penalty points (Rummy40, Scala 40): each seat adds its hand unless it went out, twice
    // over when the one who went out closed in hand (where the game doubles it), and the
    // penalty for each failed opening; a seat out of the match sits the hand out.
    penalty(model, fields, seats) {
      const closer = seats.find((seat) => seat.out);
      const factor = closer && closer.closed ? model.closed_factor || 1 : 1;
      return seats.map((seat) => {
        if (seat.sitting) return 0;
        const hand = seat.out ? 0 : seat.points;
        return hand === null ? null : hand * factor + model.opening_penalty * seat.failed;
      });
    },
    // Points gained and lost (Ramino): whoever went out gains what the others hold (and with
    // casino scoring what they melded, which the others share), everything doubled for a
    // hand closed in one go; with nobody out, each seat loses its hand.
    gain_loss(model, fields, seats) {
      const winner = seats.findIndex((seat) => seat.out);
      if (winner < 0) return seats.map((seat) => (seat.points === null ? null : -seat.points));
      const others = seats.map((_, step) => (winner + step) % seats.length).slice(1);
      const points = seats.map(() => 0);
      for (const seat of others) {
        if (seats[seat].points === null) return null;
        points[seat] = -seats[seat].points;
        points[winner] += seats[seat].points;
      }
      const melded = seats[winner].melded;
      points[winner] += melded;
      const share = Math.floor(melded / others.length);
      others.forEach((seat, turn) => {
        points[seat] -= share + (turn < melded % others.length ? 1 : 0);
      });
      const factor = seats[winner].closed ? model.closed_factor : 1;
      return points.map((value) => value * factor);
    },
    // Lowest hand wins (Knock Rummy): each winner scores the differences to every hand, with
    // the undercut bonus when the knocker was beaten or tied, and the bonus for going out.
    lowest_wins(model, fields, seats) {
      if (seats.some((seat) => seat.points === null)) return null;
      const values = seats.map((seat) => seat.points);
      const lowest = Math.min(...values);
      const tied = values.flatMap((value, seat) => (value === lowest ? [seat] : []));
      const knocker = seats.findIndex((seat) => seat.knocked);
      const undercut = knocker >= 0 && !(tied.length === 1 && tied[0] === knocker);
      const spread = values.reduce((sum, value) => sum + value - lowest, 0);
      return seats.map((seat, index) => {
        if (!tied.includes(index) || (undercut && index === knocker)) return 0;
        return spread + (undercut ? model.undercut : 0) + (seat.out ? model.out : 0);
      });
    },
    // One sheet a side (partners scoring as one): each box as the game declares it and the
    // engine worth it, a number by its sign, a count by its points (negated while the box
    // it depends on says nothing melded), a check box by its worth (some only for the side
    // that went out), the going out's bonus. One number a side: the board shows one box a
    // side.
    side_sheet(model, fields, seats, sides) {
      const points = [];
      for (let side = 0; side < sides; side += 1) {
        const field = (name) => fields[`s${side}_${name}`];
        const out = fields[model.out] === String(side);
        let total = model.constant + (out ? model.out_bonus : 0);
        for (const box of model.boxes) {
          if (box.kind === "points") {
            const value = number(field(box.key));
            if (value === null) return null;
            total += box.sign * value;
          } else if (box.kind === "count") {
            const count = number(field(box.key)) || 0;
            if (count >= box.table.length) return null;
            const negated = box.negated_unless && !number(field(box.negated_unless));
            total += negated ? -box.table[count] : box.table[count];
          } else if (field(box.key) && (out || !box.only_when_out)) {
            total += box.on;
          }
        }
        points.push(total);
      }
      return points;
    },
  };

  // A seat-by-seat entry by points, read from the form's fields (p0_points, p0_went_out...).
  function seatsOf(fields, count) {
    const seats = [];
    for (let index = 0; index < count; index += 1) {
      const field = (name) => fields[`p${index}_${name}`];
      seats.push({
        points: number(field("points")),
        out: Boolean(field("went_out")),
        knocked: Boolean(field("knocked")),
        closed: Boolean(field("hand_closed")),
        failed: number(field("opening_penalty")) || 0,
        melded: number(field("melded_points")) || 0,
        sitting: Boolean(field("sitting_out")),
      });
    }
    return seats;
  }

  // Each seat's points for an entry's fields ([name, value] pairs, as the outbox keeps
  // them), or null when this page cannot tell.
  function points(model, pairs, seatCount) {
    if (!model || !SHAPES[model.shape]) return null;
    const fields = {};
    pairs.forEach(([name, value]) => { fields[name] = value; });
    // Each shape reads the entry's quick mode: points, or its own (a side's sheet).
    if (model.shape !== "knock_difference" && fields.mode !== (model.mode || "points")) return null;
    const scored = SHAPES[model.shape](model, fields, seatsOf(fields, seatCount), seatCount);
    return scored && scored.every((value) => Number.isInteger(value)) ? scored : null;
  }

  window.rummyrefProvisional = { points };
})();
