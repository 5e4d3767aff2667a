/** Python that plots the squares of 1 to 10 with matplotlib, saves squares.png and shows the figure. */
export const SQUARES_PLOT = [
  'import matplotlib.pyplot as plt',
  'xs = list(range(1, 11))',
  'plt.figure(figsize=(5, 3.2))',
  'plt.plot(xs, [x * x for x in xs], marker="o")',
  'plt.title("Squares")',
  'plt.savefig("squares.png")',
  'plt.show()',
].join('\n');
