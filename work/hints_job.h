/*
 * hints_job.h - the worker's part of a practice table: each action of
 * the seat to move weighed from that seat's knowledge (bot_estimate_
 * options, told nothing: a person hears no bot's hand), its chance of
 * winning kept for the table to show (store_hints_put).
 */
#ifndef BT_HINTS_JOB_H
#define BT_HINTS_JOB_H

#include "search.h"
#include "store.h"

/*
 * Weighs the options of hints job j's seat with budget, and keeps them.
 * STORE_OK; STORE_CONFLICT if the game has moved on (or waits for a
 * Sensor Sweep's order: no hints for that step); else the store's
 * failure (the job stays to do).
 */
store_rc hints_job_do(store *st, bot *b, const bot_budget *budget,
                      const store_job *j, store_error *err);

#endif
