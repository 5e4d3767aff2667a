# `files`: small file helpers whose relative paths mean "in the conversation's workspace", the same
# helpers as the Python, Node and Ruby runners have (oi_files.py, files.mjs, oi_files.rb).
#
# oi_runner.R sources this file into an environment whose parent is base R (so a user's own `paste`
# or `list` cannot change what these functions call) and attaches oi_files(workspace) as `files`.
# Like the others, a relative path resolves against the workspace whatever setwd() did since, and an
# absolute or ~ path is used as given: the helpers are a convenience for code that can open any file
# anyway, not a boundary. Failures are R errors with a class (oi_files_not_found, ...; all inherit
# oi_files_error) that carry the absolute path in their message and in `$path`.

# Folders that recursive listing and search step over: tool caches and installed packages dwarf a
# workspace's own files. Pass such a folder as the path to look inside it anyway.
SKIP_DIRS <- c(".git", ".hg", ".svn", "node_modules", ".venv", "venv", "__pycache__", ".mypy_cache",
               ".pytest_cache", ".tox", ".ipynb_checkpoints")
SEARCH_MAX_FILE <- 20 * 1024 * 1024
SEARCH_MAX_LINE <- 500L

# --- conditions -------------------------------------------------------------------------------------

files_error <- function(kind, message, path = NULL) {
  structure(class = c(paste0("oi_files_", kind), "oi_files_error", "error", "condition"),
            list(message = message, call = NULL, path = path))
}

fail <- function(kind, message, path = NULL) stop(files_error(kind, message, path))

# The public functions run their work through this and signal a failure from their own frame, so
# the error reads "Error in files$read(...)" and its Calls: line shows no helper internals.
attempt <- function(expr) tryCatch(expr, oi_files_error = function(e) e)
failed <- function(x) inherits(x, "oi_files_error")
located <- function(e, call) {
  e$call <- call
  e
}

quoted <- function(full) paste0("'", full, "'")

# The nearest existing path above `full` when it is a file (so nothing can be below it), or NULL.
blocking_file <- function(full) {
  parent <- dirname(full)
  while (!file.exists(parent) && dirname(parent) != parent) parent <- dirname(parent)
  if (file.exists(parent) && !dir.exists(parent)) parent else NULL
}

# Why a path that does not exist is missing: a file where a folder should be, or nothing there.
missing_error <- function(full) {
  blocker <- blocking_file(full)
  if (!is.null(blocker)) {
    fail("not_directory", paste0("not a directory: ", quoted(blocker), " (on the way to ", quoted(full), ")"), full)
  }
  fail("not_found", paste0("no such file or directory: ", quoted(full)), full)
}

# Runs an R file operation, turning its warning or error (which says why in words) into one of ours.
os_call <- function(full, expr) {
  tryCatch(expr, warning = function(w) os_failure(conditionMessage(w), full),
           error = function(e) os_failure(conditionMessage(e), full))
}

# R's reasons are the C library's strerror() text (in English unless the user set LANGUAGE).
os_failure <- function(reason, full) {
  kinds <- c("No such file or directory" = "not_found", "Permission denied" = "permission",
             "Read-only file system" = "permission", "Is a directory" = "is_directory",
             "Not a directory" = "not_directory")
  for (words in names(kinds)) {
    if (grepl(words, reason, fixed = TRUE)) fail(kinds[[words]], paste0(tolower(words), ": ", quoted(full)), full)
  }
  fail("failed", paste0(reason, " (", quoted(full), ")"), full)
}

# --- paths ----------------------------------------------------------------------------------------------

# "/a/./b/../c" -> "/a/c" without touching the disk (symlinks stay as written), as Python's
# normpath, Node's path.resolve and Ruby's File.expand_path do.
lexical <- function(absolute) {
  kept <- character(0)
  for (part in strsplit(absolute, "/", fixed = TRUE)[[1]]) {
    if (part == "" || part == ".") next
    if (part == "..") kept <- kept[-length(kept)] else kept <- c(kept, part)
  }
  paste0("/", paste(kept, collapse = "/"))
}

home <- function() {
  found <- Sys.getenv("HOME")
  if (nzchar(found)) found else path.expand("~")
}

resolve <- function(workspace, path) {
  if (inherits(path, "fs_path")) path <- as.character(path)
  if (!is.character(path) || length(path) != 1L || is.na(path)) {
    fail("bad_argument", paste0("a path is one string, not ", if (is.character(path)) paste(length(path), "strings") else class(path)[1L]))
  }
  path <- enc2utf8(path)
  if (path == "~" || startsWith(path, "~/")) path <- paste0(home(), substring(path, 2L))
  lexical(if (startsWith(path, "/")) path else paste0(workspace, "/", path))
}

# Each name prefixed; no names gives none (paste0 would give the bare prefix).
prefixed <- function(prefix, names) if (length(names) == 0L) character(0) else paste0(prefix, names)

below <- function(root, relative) prefixed(if (endsWith(root, "/")) root else paste0(root, "/"), relative)

# A path for search results: relative to the workspace when inside it.
shown <- function(workspace, full) {
  prefix <- if (endsWith(workspace, "/")) workspace else paste0(workspace, "/")
  inside <- startsWith(full, prefix)
  full[inside] <- substring(full[inside], nchar(prefix) + 1L)
  full
}

# Sys.readlink() gives "" for a path that is not a link and NA for one that does not exist.
is_link <- function(full) {
  target <- Sys.readlink(full)
  !is.na(target) & nzchar(target)
}

# Code-point order, as Python's sorted() and Ruby's sort (R's default sort follows the locale).
sorted <- function(x) sort(x, method = "radix")

# --- globs ------------------------------------------------------------------------------------------------

# A PCRE for a glob: * and ? stay within a path segment, ** crosses segments, [abc] and {a,b} as
# in shells.
glob_regex <- function(pattern) paste0("(?s)\\A", glob_body(pattern), "\\z")

glob_body <- function(pattern) {
  chars <- strsplit(pattern, "")[[1]]
  n <- length(chars)
  at <- function(i, text) i + nchar(text) - 1L <= n && paste(chars[i:(i + nchar(text) - 1L)], collapse = "") == text
  find <- function(char, from) {
    if (from > n) return(NA_integer_)
    hit <- which(chars[from:n] == char)
    if (length(hit) == 0L) NA_integer_ else from + hit[1L] - 1L
  }
  out <- character(0)
  i <- 1L
  while (i <= n) {
    ch <- chars[i]
    if (at(i, "**/")) {
      out <- c(out, "(?:.*/)?")
      i <- i + 3L
      next
    }
    if (at(i, "**")) {
      out <- c(out, ".*")
      i <- i + 2L
      next
    }
    close_bracket <- if (ch == "[") find("]", i + 2L) else NA_integer_
    close_brace <- if (ch == "{") find("}", i) else NA_integer_
    if (ch == "*") {
      out <- c(out, "[^/]*")
    } else if (ch == "?") {
      out <- c(out, "[^/]")
    } else if (!is.na(close_bracket)) {
      body <- paste(chars[(i + 1L):(close_bracket - 1L)], collapse = "")
      negate <- substr(body, 1L, 1L) %in% c("!", "^")
      if (negate) body <- substring(body, 2L)
      out <- c(out, paste0("[", if (negate) "^" else "", gsub("\\", "\\\\", body, fixed = TRUE), "]"))
      i <- close_bracket
    } else if (!is.na(close_brace)) {
      inner <- if (close_brace > i + 1L) paste(chars[(i + 1L):(close_brace - 1L)], collapse = "") else ""
      alternatives <- strsplit(inner, ",", fixed = TRUE)[[1]]
      if (endsWith(inner, ",") || !nzchar(inner)) alternatives <- c(alternatives, "")
      out <- c(out, paste0("(?:", paste(vapply(alternatives, glob_body, ""), collapse = "|"), ")"))
      i <- close_brace
    } else if (grepl("^[[:punct:] ]$", ch) && utf8ToInt(ch) < 128L) {
      out <- c(out, paste0("\\", ch))
    } else {
      out <- c(out, ch)
    }
    i <- i + 1L
  }
  paste(out, collapse = "")
}

matches <- function(pattern, x) grepl(glob_regex(pattern), x, perl = TRUE)

# --- walking and reading ------------------------------------------------------------------------------

# Marked UTF-8: the radix sort and PCRE matching refuse non-ASCII text in an unmarked encoding.
names_in <- function(folder) enc2utf8(list.files(folder, all.files = TRUE, no.. = TRUE))

# Everything under root minus SKIP_DIRS, as list(path = relative with "/", dir = is it a folder), in
# os.walk's order: a folder's subfolders, then its files, each sorted, then the subfolders' contents.
# Links to folders are listed, not entered (they may loop); unreadable folders list as empty.
walk <- function(root) {
  paths <- list()
  dirs <- list()
  visit <- function(prefix) {
    folder <- if (nzchar(prefix)) below(root, prefix) else root
    children <- sorted(names_in(folder))
    is_dir <- dir.exists(below(folder, children))
    sub <- children[is_dir & !(children %in% SKIP_DIRS)]
    plain <- children[!is_dir]
    paths[[length(paths) + 1L]] <<- prefixed(prefix, c(sub, plain))
    dirs[[length(dirs) + 1L]] <<- rep(c(TRUE, FALSE), c(length(sub), length(plain)))
    for (d in sub[!is_link(below(folder, sub))]) visit(paste0(prefix, d, "/"))
  }
  visit("")
  list(path = as.character(unlist(paths)), dir = as.logical(unlist(dirs)))
}

read_bytes <- function(full) {
  con <- os_call(full, file(full, "rb", raw = TRUE))
  on.exit(close(con))
  size <- file.size(full)
  chunks <- list()
  repeat {
    chunk <- readBin(con, "raw", n = if (length(chunks) == 0L && isTRUE(size > 0)) size else 1048576L)
    if (length(chunk) == 0L) break
    chunks[[length(chunks) + 1L]] <- chunk
  }
  if (length(chunks) == 0L) raw(0) else unlist(chunks, use.names = FALSE)
}

is_utf8 <- function(encoding) toupper(gsub("[-_]", "", encoding)) == "UTF8"

# Bytes as text in `encoding`, returned as UTF-8; text that is not valid there is an error naming
# the first bad byte, as in Python and Ruby. R strings cannot hold NUL bytes at all.
decode <- function(bytes, encoding, full) {
  not_text <- function(offset) {
    fail("not_text", paste0(quoted(full), " is not ", encoding, " text (bad byte at offset ", offset,
                            "); use files$read(path, binary = TRUE) for its bytes"), full)
  }
  nul <- which(bytes == as.raw(0L))
  if (length(nul) > 0L) not_text(nul[1L] - 1L)
  text <- rawToChar(bytes)
  if (is_utf8(encoding)) {
    Encoding(text) <- "UTF-8"
    if (validUTF8(text)) return(text)
  } else {
    converted <- iconv(text, encoding, "UTF-8")
    if (!is.na(converted)) return(converted)
  }
  # Each bad byte becomes the `sub` text: converting twice with different ones, the first place the
  # results differ is the first bad byte; the good text before it, converted back, gives its offset.
  first <- utf8ToInt(iconv(text, encoding, "UTF-8", sub = "\001"))
  second <- utf8ToInt(iconv(text, encoding, "UTF-8", sub = "\002"))
  at <- which(first != second)[1L]
  prefix <- intToUtf8(first[seq_len(at - 1L)])
  not_text(length(iconv(prefix, "UTF-8", encoding, toRaw = TRUE)[[1L]]))
}

# Lines of a text file for search; nothing for binary, huge, unreadable or vanished files.
text_lines <- function(full) {
  size <- file.size(full)
  if (is.na(size) || size > SEARCH_MAX_FILE) return(character(0))
  bytes <- tryCatch(read_bytes(full), error = function(e) NULL)
  if (length(bytes) == 0L || any(bytes[seq_len(min(length(bytes), 8192L))] == as.raw(0L))) return(character(0))
  text <- rawToChar(bytes[bytes != as.raw(0L)]) # a NUL past the binary check is dropped: R strings cannot hold one
  Encoding(text) <- "UTF-8"
  if (!validUTF8(text)) text <- iconv(text, "UTF-8", "UTF-8", sub = "\ufffd")
  strsplit(text, "\r\n|\n|\r", perl = TRUE)[[1]]
}

# --- JSON, for lists and data frames given to write() ----------------------------------------------

json_string <- function(s) {
  s <- enc2utf8(s)
  s <- gsub("\\", "\\\\", s, fixed = TRUE)
  s <- gsub("\"", "\\\"", s, fixed = TRUE)
  s <- gsub("\n", "\\n", s, fixed = TRUE)
  s <- gsub("\r", "\\r", s, fixed = TRUE)
  s <- gsub("\t", "\\t", s, fixed = TRUE)
  s <- gsub("\b", "\\b", s, fixed = TRUE)
  s <- gsub("\f", "\\f", s, fixed = TRUE)
  for (code in c(1:7, 11L, 14:31)) s <- gsub(intToUtf8(code), sprintf("\\u%04x", code), s, fixed = TRUE)
  paste0("\"", s, "\"")
}

json_number <- function(x) {
  x <- as.numeric(x)
  if (!is.finite(x)) return("null")
  short <- sprintf("%.15g", x)
  if (as.numeric(short) == x) short else sprintf("%.17g", x)
}

json_scalar <- function(x) {
  if (is.na(x)) return("null")
  if (is.logical(x)) return(if (x) "true" else "false")
  if (is.numeric(x)) return(json_number(x))
  json_string(as.character(x))
}

# Indented by two spaces like Python's json.dumps(indent=2): a named list is an object, any other
# list an array, a data frame an array of row objects, a length-one vector a scalar, a longer one
# an array; factors, dates and other classed vectors are written as their text.
to_json <- function(x, indent = "") {
  if (is.null(x)) return("null")
  if (is.data.frame(x)) {
    rows <- lapply(seq_len(nrow(x)), function(i) lapply(x, function(column) column[[i]]))
    return(to_json(rows, indent))
  }
  if (is.atomic(x) && is.object(x)) x <- ifelse(is.na(x), NA_character_, as.character(x))
  if (is.atomic(x) && length(x) == 1L) return(json_scalar(x))
  if (!is.atomic(x) && !is.list(x)) {
    fail("bad_argument", paste0("files$write() cannot save ", class(x)[1L], " as JSON"))
  }
  inner <- paste0(indent, "  ")
  keys <- names(x)
  object <- is.list(x) && !is.null(keys)
  if (length(x) == 0L) return(if (object) "{}" else "[]")
  items <- vapply(seq_along(x), function(i) to_json(x[[i]], inner), "")
  if (object) items <- paste0(vapply(keys, json_string, ""), ": ", items)
  open_close <- if (object) c("{", "}") else c("[", "]")
  paste0(open_close[1L], "\n", inner, paste(items, collapse = paste0(",\n", inner)), "\n", indent, open_close[2L])
}

as_bytes <- function(data) {
  if (is.raw(data)) return(data)
  if (is.character(data)) {
    if (length(data) == 1L) return(charToRaw(enc2utf8(data)))
    return(charToRaw(enc2utf8(paste0(data, "\n", collapse = ""))))
  }
  if (is.list(data)) return(charToRaw(paste0(to_json(data), "\n")))
  fail("bad_argument", paste0("files$write() takes a character vector, raw bytes, or a list or data frame (saved as JSON), not ",
                              class(data)[1L]))
}

# --- the helper ---------------------------------------------------------------------------------------

# files$read(path, binary = FALSE, encoding = "UTF-8")   one string (raw bytes with binary = TRUE)
# files$write(path, data, append = FALSE)                the absolute path written, invisibly; a
#     string is written as is, a longer character vector one element per line, a list or data
#     frame as JSON
# files$list(path = ".", pattern = NULL)                 sorted names, folders end with "/"
# files$search(text, path = ".", pattern = NULL, ignore_case = FALSE, max_results = 1000)
#                                                        data.frame(path, line, text)
# files$delete(path, recursive = FALSE)
# files$exists(path), files$path(path = ".")
oi_files <- function(workspace) {
  if (!startsWith(workspace, "/")) workspace <- paste0(getwd(), "/", workspace)
  workspace <- lexical(enc2utf8(workspace))
  self <- new.env(parent = emptyenv())
  self$workspace <- workspace

  self$path <- function(path = ".") {
    out <- attempt(resolve(workspace, path))
    if (failed(out)) stop(located(out, sys.call()))
    out
  }

  self$read <- function(path, binary = FALSE, encoding = "UTF-8") {
    out <- attempt({
      full <- resolve(workspace, path)
      if (dir.exists(full)) fail("is_directory", paste0("is a directory, not a file: ", quoted(full), " (files$list() lists it)"), full)
      if (!file.exists(full)) missing_error(full)
      bytes <- read_bytes(full)
      if (isTRUE(binary)) bytes else decode(bytes, encoding, full)
    })
    if (failed(out)) stop(located(out, sys.call()))
    out
  }

  self$write <- function(path, data, append = FALSE) {
    out <- attempt({
      full <- resolve(workspace, path)
      bytes <- as_bytes(data)
      if (dir.exists(full)) fail("is_directory", paste0("is a directory, not a file: ", quoted(full)), full)
      parent <- dirname(full)
      if (!dir.exists(parent)) {
        if (!is.null(blocking_file(full))) missing_error(full)
        os_call(parent, dir.create(parent, recursive = TRUE))
      }
      con <- os_call(full, file(full, if (isTRUE(append)) "ab" else "wb", raw = TRUE))
      tryCatch(writeBin(bytes, con), finally = close(con))
      full
    })
    if (failed(out)) stop(located(out, sys.call()))
    invisible(out)
  }

  self$exists <- function(path) {
    out <- attempt({
      full <- resolve(workspace, path)
      file.exists(full) || is_link(full)
    })
    if (failed(out)) stop(located(out, sys.call()))
    out
  }

  self$list <- function(path = ".", pattern = NULL) {
    out <- attempt({
      root <- resolve(workspace, path)
      if (!file.exists(root)) missing_error(root)
      if (!dir.exists(root)) fail("not_directory", paste0("not a directory: ", quoted(root)), root)
      if (file.access(root, 4L) != 0L) fail("permission", paste0("permission denied: ", quoted(root)), root)
      if (is.null(pattern) || !nzchar(pattern) || (!grepl("/", pattern, fixed = TRUE) && !grepl("**", pattern, fixed = TRUE))) {
        children <- names_in(root)
        if (!is.null(pattern) && nzchar(pattern)) children <- children[matches(pattern, children)]
        sorted(paste0(children, ifelse(dir.exists(below(root, children)), "/", "")))
      } else {
        entries <- walk(root)
        keep <- matches(pattern, entries$path)
        sorted(paste0(entries$path[keep], ifelse(entries$dir[keep], "/", "")))
      }
    })
    if (failed(out)) stop(located(out, sys.call()))
    out
  }

  self$delete <- function(path, recursive = FALSE) {
    out <- attempt({
      full <- resolve(workspace, path)
      if (dir.exists(full) && !is_link(full)) {
        if (length(names_in(full)) > 0L && !isTRUE(recursive)) {
          fail("not_empty", paste0("directory not empty: ", quoted(full), " (pass recursive = TRUE to delete it with its contents)"), full)
        }
        if (unlink(full, recursive = TRUE) != 0L || dir.exists(full)) {
          fail("failed", paste0("could not delete everything in ", quoted(full)), full)
        }
      } else {
        if (!file.exists(full) && !is_link(full)) missing_error(full)
        os_call(full, file.remove(full))
      }
      NULL
    })
    if (failed(out)) stop(located(out, sys.call()))
    invisible(NULL)
  }

  self$search <- function(text, path = ".", pattern = NULL, ignore_case = FALSE, max_results = 1000) {
    out <- attempt({
      if (!is.character(text) || length(text) != 1L || is.na(text) || !nzchar(text)) {
        fail("bad_argument", "files$search() needs some text to look for")
      }
      root <- resolve(workspace, path)
      if (dir.exists(root)) {
        entries <- walk(root)
        relative <- entries$path[!entries$dir]
        full <- below(root, relative)
      } else if (file.exists(root)) {
        relative <- basename(root)
        full <- root
      } else {
        missing_error(root)
      }
      if (!is.null(pattern) && nzchar(pattern)) {
        keep <- matches(pattern, relative) | matches(pattern, basename(relative))
        full <- full[keep]
      }
      needle <- enc2utf8(text)
      if (isTRUE(ignore_case)) needle <- tolower(needle)
      found <- list(path = character(0), line = integer(0), text = character(0))
      for (each in full) {
        lines <- text_lines(each)
        hits <- which(grepl(needle, if (isTRUE(ignore_case)) tolower(lines) else lines, fixed = TRUE))
        hits <- hits[seq_len(min(length(hits), max_results - length(found$line)))]
        found$path <- c(found$path, rep(shown(workspace, each), length(hits)))
        found$line <- c(found$line, hits)
        found$text <- c(found$text, substr(lines[hits], 1L, SEARCH_MAX_LINE))
        if (length(found$line) >= max_results) break
      }
      data.frame(path = found$path, line = found$line, text = found$text, stringsAsFactors = FALSE)
    })
    if (failed(out)) stop(located(out, sys.call()))
    out
  }

  lockEnvironment(self, bindings = TRUE)
  class(self) <- "oi_files"
  self
}

print.oi_files <- function(x, ...) {
  cat("<files: read, write, list, delete, search, exists, path; relative paths are in ", x$workspace, ">\n", sep = "")
  invisible(x)
}
