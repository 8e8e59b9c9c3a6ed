-- 0027-page-changes: a game's table page, read on a server, is kept by
-- the program that read it (db/driver_pg_kept.c) until the server says
-- the game changed: every change to a row that the page reads notifies
-- the channel buffertime_pages with "SCHEMA GAME", whichever host, tool
-- or person made it, when its transaction commits (the notifications of
-- one transaction with one payload are one).  A change to the blocked
-- addresses, or a table emptied, may touch any game: "SCHEMA *".  The
-- schema in the payload lets other instances in the same database (each
-- in a schema of its own) let it pass.
CREATE FUNCTION buffertime_game_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM pg_notify('buffertime_pages',
		                  current_schema() || ' ' || OLD.game);
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM pg_notify('buffertime_pages',
		                  current_schema() || ' ' || NEW.game);
	END IF;
	RETURN NULL;
END
$$;
-- a game's own row, and the game whose "play again" made it (its page
-- shows the crew's game before, SQL_CREW_BEFORE)
CREATE FUNCTION buffertime_games_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	IF TG_OP <> 'INSERT' THEN
		PERFORM pg_notify('buffertime_pages',
		                  current_schema() || ' ' || OLD.id);
		IF OLD.rematch <> '' THEN
			PERFORM pg_notify('buffertime_pages',
			                  current_schema() || ' ' || OLD.rematch);
		END IF;
	END IF;
	IF TG_OP <> 'DELETE' THEN
		PERFORM pg_notify('buffertime_pages',
		                  current_schema() || ' ' || NEW.id);
		IF NEW.rematch <> '' THEN
			PERFORM pg_notify('buffertime_pages',
			                  current_schema() || ' ' || NEW.rematch);
		END IF;
	END IF;
	RETURN NULL;
END
$$;
CREATE FUNCTION buffertime_games_all_changed() RETURNS trigger
LANGUAGE plpgsql AS $$
BEGIN
	PERFORM pg_notify('buffertime_pages', current_schema() || ' *');
	RETURN NULL;
END
$$;
CREATE TRIGGER games_changed AFTER INSERT OR UPDATE OR DELETE ON games
	FOR EACH ROW EXECUTE FUNCTION buffertime_games_changed();
CREATE TRIGGER seats_changed AFTER INSERT OR UPDATE OR DELETE ON seats
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER actions_changed AFTER INSERT OR UPDATE OR DELETE ON actions
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER chat_changed AFTER INSERT OR UPDATE OR DELETE ON chat
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER review_moves_changed
	AFTER INSERT OR UPDATE OR DELETE ON review_moves
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER hints_changed AFTER INSERT OR UPDATE OR DELETE ON hints
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER taken_back_changed
	AFTER INSERT OR UPDATE OR DELETE ON taken_back
	FOR EACH ROW EXECUTE FUNCTION buffertime_game_changed();
CREATE TRIGGER blocked_changed
	AFTER INSERT OR UPDATE OR DELETE OR TRUNCATE ON blocked
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER games_emptied AFTER TRUNCATE ON games
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER seats_emptied AFTER TRUNCATE ON seats
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER actions_emptied AFTER TRUNCATE ON actions
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER chat_emptied AFTER TRUNCATE ON chat
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER review_moves_emptied AFTER TRUNCATE ON review_moves
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER hints_emptied AFTER TRUNCATE ON hints
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
CREATE TRIGGER taken_back_emptied AFTER TRUNCATE ON taken_back
	FOR EACH STATEMENT EXECUTE FUNCTION buffertime_games_all_changed();
