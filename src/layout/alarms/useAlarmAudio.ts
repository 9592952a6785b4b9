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
 * until then; `none` where the browser has no Web Audio.
 */
export const useAlarmAudio = () => {
  const context = useRef<AudioContext | undefined>(undefined);
  const [audio, setAudio] = useState<AudioAvailability>(() => (typeof AudioContext === 'undefined' ? 'none' : 'blocked'));
  useEffect(() => {
    if (typeof AudioContext === 'undefined') return undefined;
    const created = new AudioContext();
    context.current = created;
    const follow = () => setAudio(created.state === 'running' ? 'running' : 'blocked');
    const resume = () => {
      if (created.state === 'suspended') created.resume().then(follow, follow);
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
  const play = useCallback((pattern: TonePattern) => {
    if (context.current?.state === 'running') playOn(context.current, pattern);
  }, []);
  return { audio, play };
};
