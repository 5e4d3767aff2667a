# frozen_string_literal: true

require 'stringio'

# Batched $stdout/$stderr for the Ruby runner, flushed on a short timer, like the Python runner's
# oi_streams.py.
#
# Ruby writes every `puts` to a terminal at once, whatever `sync` says (an IO on a tty ignores
# buffering), so a loop printing 200 000 lines costs 200 000 system calls and pty round trips.
# Here $stdout and $stderr (and STDOUT/STDERR) collect text in memory instead; a background thread
# sends it ≈20 ms after the first byte, or the writer does at once past 64 KiB (so memory stays
# bounded when the terminal is slow), and the runner flushes before each rich output and at the
# end of each cell (docs/exec-protocol.md). Measured through the engine on 1M `puts` lines: half the
# runner's CPU time, a third less wall time and less work for main than one write(2) per line.
#
# Why a StringIO: its write, puts and print are C, so a buffered line costs less than the system
# call it saves (an IO subclass with a Ruby-level buffer costs more). Ruby flushes $stdout and
# $stderr by calling `flush` before system, spawn, backticks and fork, so `puts "a"; system("echo
# b")` keeps its order. What an IO has and a StringIO lacks (fileno, tty?, to_io for
# `spawn(out: $stdout)`, winsize…) is answered by the real stream on fd 1 or 2.
module OiStreams
  FLUSH_INTERVAL = 0.02
  BUFFER_SIZE = 1 << 16

  class Stream < StringIO
    # real: the IO on the stream's file descriptor. shared: stdout's Stream, when this is stderr
    # and both are the same terminal: one buffer keeps the two in the order they were written.
    def initialize(real, fd, shared = nil)
      super(String.new(capacity: BUFFER_SIZE, encoding: Encoding::BINARY))
      @real = real
      @fd = fd
      @shared = shared
      @lock = Mutex.new
      @idle = false # the flusher thread waits for text (and must be woken when some comes)
      @wake_r = @wake_w = nil
    end

    def write(*strings)
      if @shared
        # stderr joins stdout's buffer (so the two keep their order); during a cell its text is
        # wrapped in the run's stream markers so main still knows which is which.
        markers = OiStreams.stderr_markers
        return @shared.write(*strings) unless markers && strings.any? { |s| !s.to_s.empty? }

        @shared.write(markers[0])
        count = @shared.write(*strings)
        @shared.write(markers[1])
        return count
      end

      count = super
      if pos >= BUFFER_SIZE
        flush
      elsif @idle
        wake
      end
      count
    end

    def flush
      return @shared.flush if @shared

      @lock.synchronize { send_buffered }
      self
    rescue ThreadError
      self # a signal handler (trap context) cannot take the lock; the timer sends the text
    end

    # Starts the thread that sends text the writer left behind (a few lines, then a pause).
    # A fresh pipe each time: a forked child must not share its wake-ups with the parent.
    def start_flusher
      return if @shared

      @wake_r, @wake_w = IO.pipe
      thread = Thread.new { flush_forever }
      thread.name = 'oi-stdout-flusher'
      thread.report_on_exception = false
    end

    def shared?
      !@shared.nil?
    end

    def fileno
      @fd
    end
    alias to_i fileno

    def tty?
      @real.tty?
    end
    alias isatty tty?

    # spawn(out: $stdout), IO.select and friends take the real stream, after what waits for it.
    def to_io
      flush
      @real
    end

    def fsync
      flush
      @real.fsync
    end

    def reopen(*args)
      flush
      @real.reopen(*args)
      self
    end

    def close
      flush
      super
    end

    def inspect
      "#<IO:<#{@fd == 1 ? 'STDOUT' : 'STDERR'}>>"
    end

    # Anything else an IO can do (stat, winsize with io/console, …), done by the real stream.
    def method_missing(name, *args, &block)
      return super unless @real.respond_to?(name)

      flush
      @real.public_send(name, *args, &block)
    end
    ruby2_keywords(:method_missing) if respond_to?(:ruby2_keywords, true)

    def respond_to_missing?(name, include_private = false)
      @real.respond_to?(name) || super
    end

    private

    # Waits for text, gives later writes FLUSH_INTERVAL to join it, sends it. It waits in
    # IO.select on a pipe, not in sleep or a ConditionVariable: on Ruby 3.1 a thread in those takes
    # the signal-wait role and spins while the writer is blocked in write(2) on a full terminal,
    # which cost more CPU than the batching saved. @idle is set before each look at the buffer,
    # so a write that lands after the look sees it and sends a wake-up byte.
    def flush_forever
      loop do
        loop do
          @idle = true
          break unless string.empty?

          wait_for_wake
        end
        @idle = false
        drain_wakes
        IO.select([@wake_r], nil, nil, FLUSH_INTERVAL)
        # A writer holding the lock is sending the text itself.
        next unless @lock.try_lock

        begin
          send_buffered
        rescue StandardError
          nil # a closed or vanished terminal: the runner's own writes report it
        ensure
          @lock.unlock
        end
      end
    end

    def wait_for_wake
      IO.select([@wake_r])
      drain_wakes
    end

    def drain_wakes
      @wake_r.read_nonblock(256, exception: false)
    end

    # Swapped out before writing: writes that come meanwhile go to the new string, and an
    # Interrupt in the middle of a write loses the rest of that chunk rather than repeating it.
    def send_buffered
      data = string
      return if data.empty?

      self.string = String.new(capacity: BUFFER_SIZE, encoding: Encoding::BINARY)
      @real.write(data)
    end

    # One byte per wait: until the flusher runs again, later writes need not send another.
    def wake
      @idle = false
      @wake_w&.write_nonblock('.', exception: false) # a full pipe already holds a wake-up
    rescue IOError, SystemCallError
      nil # closed by user code: the end of the cell flushes
    end
  end

  class << self
    attr_reader :out, :err
    # [start, end] stream markers while a cell runs (docs/exec-protocol.md#stderr), else nil.
    attr_accessor :stderr_markers

    def mark_stderr(nonce)
      self.stderr_markers = nonce ? ["\e]633;P;OiStream=#{nonce}:stderr\a", "\e]633;P;OiStream=#{nonce}:stdout\a"] : nil
    end

    def install
      real_out = IO.for_fd(1, 'w', autoclose: false)
      real_err = IO.for_fd(2, 'w', autoclose: false)
      [real_out, real_err].each do |io|
        io.binmode
        io.sync = true
      end
      @out = Stream.new(real_out, 1)
      @err = Stream.new(real_err, 2, same_file?(real_out, real_err) ? @out : nil)
      # Kept referenced, so the original IO objects are never finalized (Ruby does not close fd 1
      # and 2 then anyway; this does not rely on it).
      @originals = [STDOUT, STDERR]
      replace_constant(:STDOUT, @out)
      replace_constant(:STDERR, @err)
      $stdout = @out
      $stderr = @err
      start_flushers
      Kernel.prepend(FlushBeforeExit)
      [Kernel, Process].each { |m| m.singleton_class.prepend(FlushBeforeExit) }
      Process.singleton_class.prepend(ForkHook) if Process.respond_to?(:_fork)
      at_exit { flush } # a forked child that ends normally (the runner itself leaves with exit!)
    end

    # Ours first, then whatever user code put in $stdout/$stderr.
    def flush
      [@out, @err, $stdout, $stderr].uniq.each do |stream|
        stream&.flush
      rescue StandardError
        nil # closed, or something that cannot flush
      end
    end

    def start_flushers
      [@out, @err].each(&:start_flusher)
    end

    private

    def same_file?(a, b)
      sa = a.stat
      sb = b.stat
      sa.dev == sb.dev && sa.ino == sb.ino
    rescue StandardError
      false
    end

    def replace_constant(name, value)
      Object.send(:remove_const, name)
      Object.const_set(name, value)
    end
  end

  # exit! skips everything Ruby does at exit, and exec replaces the process without flushing:
  # what the cell printed must not be lost with them.
  module FlushBeforeExit
    def exit!(*args)
      OiStreams.flush
      super
    end

    def exec(*args)
      OiStreams.flush
      super
    end
    ruby2_keywords(:exec) if respond_to?(:ruby2_keywords, true)
  end

  # Ruby flushes the streams before forking; the child also needs a flusher thread of its own
  # (threads do not survive fork). Ruby 3.1+ sends every fork through _fork.
  module ForkHook
    def _fork
      pid = super
      OiStreams.start_flushers if pid.zero?
      pid
    end
  end
end
