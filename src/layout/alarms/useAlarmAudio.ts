import { useCallback, useEffect, useRef, useState } from 'react';
import type { AudioAvailability, TonePattern } from '../../domain/alarms/signals';

const LOUDNESS = 0.2;
/** Each pulse fades in and out this fast: an edge that sharp clicks. */
const RAMP_S = 0.01;

const playOn = (context: AudioContext, { hz, pulses }: TonePattern): void => {
  const start = context.currentTime + 0.05;
  for (const { at, ms } of pulses) {
    const [from, to] = [start + at / 1000, start + (at + ms) / 1000];
    const oscillator = context.createOscillator();
    const gain = context.createGain();
    // A square wave carries the harmonics that make an alarm tone easy to locate in a room.
    oscillator.type = 'square';
    oscillator.frequency.value = hz;
    gain.gain.setValueAtTime(0, from);
    gain.gain.linearRampToValueAtTime(LOUDNESS, from + RAMP_S);
    gain.gain.setValueAtTime(LOUDNESS, to - RAMP_S);
    gain.gain.linearRampToValueAtTime(0, to);
    oscillator.connect(gain).connect(context.destination);
    oscillator.start(from);
    oscillator.stop(to);
  }
};

/**
 * The tab's one AudioContext while the layout shows. Browsers keep audio suspended until the person has
 * clicked or pressed a key on the page, so it is resumed on the first click or key and reported `blocked`
 * until it has run once; `none` where the browser has no Web Audio. Once allowed, it is suspended again
 * whenever nothing is `wanted` (a running context renders silence on the audio thread all day) and resumed
 * for a tone.
 */
export const useAlarmAudio = (wanted: boolean) => {
  const context = useRef<AudioContext | undefined>(undefined);
  const [audio, setAudio] = useState<AudioAvailability>(() => (typeof AudioContext === 'undefined' ? 'none' : 'blocked'));
  useEffect(() => {
    if (typeof AudioContext === 'undefined') return undefined;
    const created = new AudioContext();
    context.current = created;
    let allowed = false;
    const follow = () => {
      if (created.state !== 'running') return;
      allowed = true;
      setAudio('running');
    };
    // Only until the browser allows sound: afterwards suspending and resuming is this hook's own doing.
    const resume = () => {
      if (!allowed && created.state === 'suspended') created.resume().then(follow, follow);
    };
    created.addEventListener('statechange', follow);
    window.addEventListener('click', resume, true);
    window.addEventListener('keydown', resume, true);
    follow();
    return () => {
      created.removeEventListener('statechange', follow);
      window.removeEventListener('click', resume, true);
      window.removeEventListener('keydown', resume, true);
      context.current = undefined;
      void created.close();
    };
  }, []);
  useEffect(() => {
    const current = context.current;
    if (audio !== 'running' || current === undefined) return;
    void (wanted ? current.resume() : current.suspend());
  }, [audio, wanted]);
  const play = useCallback(
    (pattern: TonePattern) => {
      const current = context.current;
      if (audio !== 'running' || current === undefined) return;
      if (current.state === 'running') playOn(current, pattern);
      else current.resume().then(() => playOn(current, pattern), () => undefined);
    },
    [audio],
  );
  return { audio, play };
};
